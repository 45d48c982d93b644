/**
 * Regenerates the tables of README.md that derive from code (configuration, endpoints,
 * error codes) between their markers. `npm run docs`; a test fails when they are stale.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { envSchema } from '../src/config/schema.ts'
import { errorCodes } from '../src/errors/codes.ts'
import { operations } from '../src/operations/index.ts'
import { mcpTools, toolRoutes } from '../src/operations/mcp-tools.ts'

export function configTable(): string {
  const rows = Object.entries(envSchema.shape).map(([name, schema]) => {
    const description = (schema as { description?: string }).description ?? ''
    let fallback = ''
    try {
      const value = (schema as any).parse(undefined)
      fallback = value === undefined ? 'unset' : `\`${String(value)}\``
    } catch {
      fallback = 'required'
    }
    return `| \`${name}\` | ${fallback} | ${description} |`
  })
  return ['| variable | default | what it selects |', '| --- | --- | --- |', ...rows].join('\n')
}

/** The MCP tool an operation is reached by: its own, or a group's with the discriminator's value. */
function toolOf(op: (typeof operations)[number]): string {
  if (op.mcp === false) return 'none (a stream)'
  if (typeof op.mcp === 'object') {
    const tool = mcpTools(operations).find((t) => t.name === (op.mcp as { tool: string }).tool)!
    return `\`${tool.name}\` (${tool.key} \`${op.mcp.as}\`)`
  }
  return `\`${op.id}\``
}

export function endpointTable(): string {
  const rows = operations.map(
    (op) => `| ${op.method} | \`${op.path}\` | \`${op.id}\` | ${op.summary} | ${toolOf(op)} |`,
  )
  return ['| method | path | operation | what it does | MCP tool |', '| --- | --- | --- | --- | --- |', ...rows].join('\n')
}

/** The MCP tools, in registry order: a tool of one operation, or a group with its discriminator's values. */
export function mcpToolTable(): string {
  const rows = mcpTools(operations).map((tool, i) => {
    const routes = toolRoutes(tool).map((r) => `${tool.key ? `${r[tool.key]}: ` : ''}\`${r.method} ${r.path}\``).join('<br>')
    return `| ${i + 1} | \`${tool.name}\`${tool.key ? ` (${tool.key})` : ''} | ${routes} | ${tool.key ? tool.description : tool.variants[0]!.op.summary} |`
  })
  return ['| # | tool | HTTP twin | what it covers |', '| --- | --- | --- | --- |', ...rows].join('\n')
}

export function errorTable(): string {
  const rows = Object.entries(errorCodes).map(([code, { status, meaning }]) => `| ${status} | \`${code}\` | ${meaning} |`)
  return ['| status | code | meaning |', '| --- | --- | --- |', ...rows].join('\n')
}

export const sections: Record<string, () => string> = { config: configTable, endpoints: endpointTable, 'mcp-tools': mcpToolTable, errors: errorTable }

export function render(readme: string): string {
  let out = readme
  for (const [name, build] of Object.entries(sections)) {
    const pattern = new RegExp(`(<!-- ${name}:start -->)[\\s\\S]*?(<!-- ${name}:end -->)`)
    if (!pattern.test(out)) throw new Error(`README.md has no <!-- ${name}:start --> marker`)
    out = out.replace(pattern, (_m, start: string, end: string) => `${start}\n${build()}\n${end}`)
  }
  return out
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const readme = await readFile('README.md', 'utf8')
  await writeFile('README.md', render(readme))
  console.log('README.md tables regenerated')
}
