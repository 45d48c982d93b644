import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { randomUUID } from 'node:crypto'
import type { Context } from '../context.ts'
import type { AnyOperation } from '../operations/define.ts'
import { mcpTools, toolInputSchema, toolOutputSchema, toolRoutes, variantOf, type McpTool } from '../operations/mcp-tools.ts'
import { jsonSchemaOf } from '../operations/json-schema.ts'
import { toAppError } from '../operations/runtime/errors.ts'
import { AppError } from '../errors/app-error.ts'
import { parseMinBlock, valueOf, type Serving } from '../operations/runtime/serve.ts'
import { MCP_PATH } from '../operations/runtime/paths.ts'
import { absentFor } from '../chain/not-deployed.ts'
import type { ContractAddresses } from '../chain/contract-names.ts'
import { isPaidOperation, paidOutputSchema, paymentHeadersOf, paymentRequiredOf, paymentResponseMetaOf } from './x402-binding.ts'

export { MCP_PATH }

function describeTools(tools: McpTool[], contracts: ContractAddresses | undefined) {
  return tools.map((tool) => {
    const absent = notDeployedVariants(tool, contracts)
    return {
      name: tool.name,
      title: tool.title,
      description: `${tool.description}${tool.key ? '' : describeOperation(tool.variants[0]!.op)}\n\nHTTP: ${toolRoutes(tool).map((r) => `${r.method} ${r.path}${tool.key ? ` (${tool.key} ${r[tool.key]})` : ''}`).join('; ')}${describeAbsent(tool, absent)}`,
      inputSchema: toolInputSchema(tool) as { type: 'object' },
      outputSchema: toolOutputSchema(tool, outputSchemaOf) as { type: 'object' },
      annotations: { title: tool.title, ...tool.annotations },
      _meta: { http: toolRoutes(tool), ...(absent.length ? { notDeployed: absent } : {}) },
    }
  })
}

/** A variant of a tool that answers NOT_DEPLOYED here: its discriminator value (for a group), operation and missing contracts. */
type AbsentVariant = { operation: string; contracts: string[]; [discriminator: string]: string | string[] }

/**
 * The variants of a tool that this deployment cannot serve (MegaETH mainnet records no address
 * for the DeFi side): tools/list says so, so an agent does not spend a call to learn it from a
 * NOT_DEPLOYED error. Empty when every contract is there (the devnet).
 */
function notDeployedVariants(tool: McpTool, contracts: ContractAddresses | undefined): AbsentVariant[] {
  if (!contracts) return []
  return tool.variants.flatMap(({ value, op }): AbsentVariant[] => {
    const missing = absentFor(op, contracts)
    return missing.length ? [{ ...(tool.key && value !== undefined ? { [tool.key]: value } : {}), operation: op.id, contracts: missing }] : []
  })
}

function describeAbsent(tool: McpTool, absent: AbsentVariant[]): string {
  if (!absent.length) return ''
  const contracts = [...new Set(absent.flatMap((a) => a.contracts))].join(', ')
  if (absent.length === tool.variants.length) return `\n\nNot deployed on this network (missing: ${contracts}): every call answers NOT_DEPLOYED.`
  return `\n\nNot deployed on this network (missing: ${contracts}): ${tool.key} ${absent.map((a) => a[tool.key!]).join(', ')} answer NOT_DEPLOYED.`
}

const describeOperation = (op: AnyOperation) => (op.description ? `\n\n${op.description}` : '')

/** A member's output: its schema, or (a paid tool) its result or the PaymentRequired of an unpaid call. */
function outputSchemaOf(op: AnyOperation) {
  const output = jsonSchemaOf(op.output, 'output')
  return isPaidOperation(op) ? paidOutputSchema(output) : output
}

/**
 * The SDK, imported on the first MCP request: with its dependencies it is some 60 modules that a
 * start (and a process that never serves MCP) need not load before it is ready.
 */
let sdk: Promise<[typeof import('@modelcontextprotocol/sdk/server/index.js'), typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js'), typeof import('@modelcontextprotocol/sdk/types.js')]> | undefined
export function loadSdk() {
  return (sdk ??= Promise.all([
    import('@modelcontextprotocol/sdk/server/index.js'),
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]))
}

/** Who sends the MCP request: the client address its tool calls are counted under. */
export type McpCaller = { requestId: () => string; address?: string }

/**
 * One MCP server over the registry: every operation is a tool with the same schemas, served by
 * the same runtime as its HTTP route (limits of its class and wallet, cache, freshness).
 */
export async function createMcpServer(ctx: Context, operations: AnyOperation[], serving: Serving, caller: McpCaller = { requestId: randomUUID }): Promise<Server> {
  const [{ Server }, , { CallToolRequestSchema, ListToolsRequestSchema, McpError, ErrorCode }] = await loadSdk()
  const byName = new Map(mcpTools(operations).map((tool) => [tool.name, tool]))
  const tools = describeTools([...byName.values()], ctx.chain?.contracts)
  const server = new Server(
    { name: 'burn-to-create', version: '1.0.0', title: 'Burn-to-create portrait service' },
    {
      capabilities: { tools: {} },
      instructions:
        'Every capability of the HTTP API is a tool; related reads, documents and builders share one tool and take a discriminator argument (view, document, kind or action). Transaction builders return unsigned transactions for your wallet to send. Each tool\'s _meta.http names its HTTP routes.',
    },
  )
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }))
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    // The same request ID as HTTP: the X-Request-Id of the POST that carried this call.
    const id = caller.requestId()
    const tool = byName.get(request.params.name)
    // A malformed request, not a failure of a tool: a JSON-RPC error, as MCP says.
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool ${request.params.name}: tools/list names the ${byName.size} tools.`)
    const variant = variantOf(tool, request.params.arguments ?? {})
    if ('problem' in variant) return toolError(new AppError('INVALID_INPUT', variant.problem, { details: { field: tool.key } }).toBody(), id)
    const { op } = variant
    try {
      const meta = request.params._meta as Record<string, unknown> | undefined
      // x402 over MCP: the payment travels in _meta, as the HTTP binding's headers.
      const served = await serving.call(op, variant.args, {
        transport: 'mcp',
        requestId: id,
        headers: paymentHeadersOf(meta),
        address: caller.address,
        // The X-Min-Block of HTTP: an answer at least as new as the block a write returned.
        minBlock: parseMinBlock(meta?.minBlock === undefined ? undefined : String(meta.minBlock)),
      })
      const { status, headers } = served
      const _meta = { requestId: id, ...(served.block !== undefined ? { blockNumber: served.block.toString() } : {}), ...paymentResponseMetaOf(headers) }
      const contentType = headers?.['content-type'] ?? 'application/json'
      // A document or a file (llms.txt, the agent image, an IPFS portrait): its text or bytes.
      if (status === 200 && !contentType.startsWith('application/json')) return fileResult(served.bytes, contentType, _meta)
      const body = valueOf(served)
      // The operation's main answer matches its output schema: structured content plus text.
      const main = status === (op.status ?? 200)
      const paymentRequired = main ? undefined : paymentRequiredOf(status, headers)
      if (paymentRequired) return toolError(paymentRequired, id, true)
      if (status >= 400) return toolError(body, id, main)
      const result: CallToolResult = { content: [{ type: 'text', text: JSON.stringify(body) }], _meta }
      if (main) result.structuredContent = body as Record<string, unknown>
      return result
    } catch (error) {
      const appError = toAppError(error)
      if (appError.status >= 500) ctx.log.error({ err: error, tool: op.id, requestId: id }, 'tool failed')
      const body = appError.code === 'INTERNAL_ERROR' ? { error: { code: appError.code, message: 'internal error' } } : appError.toBody()
      return toolError(body, id)
    }
  })
  return server
}

/**
 * A non-JSON answer as a tool result: text as text, an image as image content, other bytes in
 * base64; the structured content says which (the text documents' output schema is an object).
 */
function fileResult(bytes: Buffer, contentType: string, _meta: Record<string, unknown>): CallToolResult {
  const mimeType = contentType.split(';')[0]!.trim()
  const textual = mimeType.startsWith('text/') || mimeType.endsWith('+xml') || mimeType.endsWith('+json')
  if (textual) {
    const text = bytes.toString('utf8')
    return { content: [{ type: 'text', text }], structuredContent: { contentType, text }, _meta }
  }
  const base64 = bytes.toString('base64')
  const content: CallToolResult['content'] = mimeType.startsWith('image/') ? [{ type: 'image', data: base64, mimeType }] : [{ type: 'text', text: base64 }]
  return { content, structuredContent: { contentType, base64, bytes: bytes.length }, _meta }
}

type ErrorBody = { error: { code: string; message: string; details?: Record<string, unknown> } }

function isErrorBody(body: unknown): body is ErrorBody {
  const error = (body as Partial<ErrorBody> | null)?.error
  return typeof error === 'object' && error !== null && typeof error.code === 'string'
}

/**
 * A tool error (not a transport failure). An error body is the HTTP one plus details.requestId, as
 * text only: structuredContent must match the tool's output schema (clients validate it, errors
 * included). A non-error answer at 4xx (x402 payment requirements) keeps its body as is.
 */
function toolError(body: unknown, requestId: string, structured = false): CallToolResult {
  const _meta = { requestId }
  if (isErrorBody(body)) {
    const withId = { ...body, error: { ...body.error, details: { ...body.error.details, requestId } } }
    return { isError: true, content: [{ type: 'text', text: JSON.stringify(withId) }], _meta }
  }
  const result: CallToolResult = { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }], _meta }
  if (structured) result.structuredContent = body as Record<string, unknown>
  return result
}

