import type { AnyOperation, Effect } from './define.ts'
import { jsonSchemaOf, type JsonSchema } from './json-schema.ts'
import { TOOL_GROUPS } from './tool-groups.ts'

export { TOOL_GROUPS, type ToolGroupName } from './tool-groups.ts'

/** One MCP tool: a single operation, or a group of them chosen by `key`. */
export type McpTool = {
  name: string
  title: string
  description: string
  /** The discriminator argument of a group; undefined for a tool of one operation. */
  key?: string
  variants: Array<{ value?: string; op: AnyOperation }>
  annotations: { readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean }
}

/** What an operation does to the world: a GET reads, a POST writes unless it says otherwise. */
export function effectOf(op: Pick<AnyOperation, 'method' | 'effect'>): Effect {
  return op.effect ?? (op.method === 'GET' ? 'read' : 'write')
}

function annotationsOf(op: AnyOperation): McpTool['annotations'] {
  const effect = effectOf(op)
  return {
    // Reads and builders change nothing: a builder returns a transaction the caller may send.
    readOnlyHint: effect !== 'write',
    destructiveHint: effect === 'write' && op.destructive === true,
    idempotentHint: effect !== 'write' || op.idempotent === true,
    // Discovery documents describe this service alone; everything else reads or acts on the chain.
    openWorldHint: !op.tags.includes('discovery'),
  }
}

/** The MCP tools of the registry, in registry order (a group where its first member stands). */
export function mcpTools(operations: readonly AnyOperation[]): McpTool[] {
  const tools: McpTool[] = []
  const groups = new Map<string, McpTool>()
  for (const op of operations) {
    if (op.mcp === false) continue
    if (op.mcp === undefined || op.mcp === true) {
      tools.push({ name: op.id, title: op.title ?? op.summary, description: op.summary, variants: [{ op }], annotations: annotationsOf(op) })
      continue
    }
    const { tool: name, as: value } = op.mcp
    let tool = groups.get(name)
    if (!tool) {
      const group = TOOL_GROUPS[name]
      tool = { name, title: group.title, description: group.description, key: group.key, variants: [], annotations: annotationsOf(op) }
      groups.set(name, tool)
      tools.push(tool)
    }
    tool.variants.push({ value, op })
  }
  return tools
}

/** The operation a call of `tool` with these arguments runs, or a sentence saying what is wrong. */
export function variantOf(tool: McpTool, args: Record<string, unknown>): { op: AnyOperation; args: Record<string, unknown> } | { problem: string } {
  if (!tool.key) return { op: tool.variants[0]!.op, args }
  const value = args[tool.key]
  const variant = tool.variants.find((v) => v.value === value)
  const choices = tool.variants.map((v) => v.value).join(', ')
  if (!variant) return { problem: value === undefined ? `Invalid ${tool.key}: required, one of ${choices}.` : `Invalid ${tool.key}: ${JSON.stringify(value)} is not one of ${choices}.` }
  const { [tool.key]: _, ...rest } = args
  return { op: variant.op, args: rest }
}

/**
 * The tool's input schema. A group's is flat (what function-calling models read best): the
 * discriminator, required, then every member's fields, each saying which members take it.
 */
export function toolInputSchema(tool: McpTool): JsonSchema {
  if (!tool.key) return { type: 'object', ...jsonSchemaOf(tool.variants[0]!.op.input, 'input') }
  const properties: Record<string, JsonSchema> = {
    [tool.key]: { type: 'string', enum: tool.variants.map((v) => v.value), description: tool.variants.map((v) => `${v.value}: ${v.op.summary}`).join('; ') },
  }
  const users = new Map<string, string[]>()
  const required = new Map<string, string[]>()
  for (const { value, op } of tool.variants) {
    const schema = jsonSchemaOf(op.input, 'input')
    for (const [name, property] of Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>)) {
      properties[name] ??= property
      users.set(name, [...(users.get(name) ?? []), value!])
    }
    for (const name of (schema.required ?? []) as string[]) required.set(name, [...(required.get(name) ?? []), value!])
  }
  for (const [name, values] of users) {
    const needs = required.get(name)
    const use = `For ${tool.key} ${values.join(', ')}${needs ? `; required for ${needs.join(', ')}` : ''}.`
    const own = properties[name]!.description
    properties[name] = { ...properties[name], description: own ? `${own}. ${use}` : use }
  }
  return { type: 'object', properties, required: [tool.key] }
}

/** The tool's output schema: the member's output, or any member's for a group. */
export function toolOutputSchema(tool: McpTool, outputOf: (op: AnyOperation) => JsonSchema): JsonSchema {
  if (!tool.key) return { type: 'object', ...outputOf(tool.variants[0]!.op) }
  return { type: 'object', anyOf: tool.variants.map((v) => outputOf(v.op)) }
}

/** The HTTP route behind each variant (tools/list `_meta`, so a client can map a tool to the API). */
export function toolRoutes(tool: McpTool): Array<{ method: string; path: string; operationId: string; [key: string]: string }> {
  return tool.variants.map(({ value, op }) => ({ method: op.method, path: op.path, operationId: op.id, ...(tool.key ? { [tool.key]: value! } : {}) }))
}

/** How an agent reaches an operation over MCP, in words: its tool and, for a group, the discriminator. */
export function toolCallOf(op: AnyOperation): string {
  if (op.mcp === false) return 'not an MCP tool (a stream); list_events gives the same events as pages'
  if (typeof op.mcp === 'object') return `MCP tool \`${op.mcp.tool}\` with ${TOOL_GROUPS[op.mcp.tool].key} \`${op.mcp.as}\``
  return `MCP tool \`${op.id}\``
}
