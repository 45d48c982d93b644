/**
 * Regenerates the tables of docs/ that derive from code (configuration, endpoints, MCP tools,
 * error codes), each between its markers in the page that lists it. `npm run docs`; a test
 * fails when one is stale.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { envSchema } from '../src/config/schema.ts'
import { errorCodes } from '../src/errors/codes.ts'
import { operations } from '../src/operations/index.ts'
import { mcpTools, toolRoutes } from '../src/operations/mcp-tools.ts'
import { limitClassOf } from '../src/operations/runtime/limits.ts'

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

/** A variable's default as the table shows it. */
function defaultOf(name: keyof typeof envSchema.shape): string {
  return String((envSchema.shape[name] as any).parse(undefined))
}

/** The rate-limit classes with the operations of each, as the runtime counts them (`limitClassOf`). */
export function limitsTable(): string {
  const routes = (limitClass: string) =>
    operations.filter((op) => limitClassOf(op) === limitClass).map((op) => `${op.method} \`${op.path}\``).join(', ')
  const limit = (name: keyof typeof envSchema.shape) => {
    const value = defaultOf(name)
    return value === '0' ? `unlimited (\`${name}\`, default 0 = off)` : `${value} / min (\`${name}\`)`
  }
  return [
    '| class | operations (and the same operations called as MCP tools) | per client address | per wallet |',
    '| --- | --- | --- | --- |',
    `| \`write\` | ${routes('write')} | ${limit('RATE_LIMIT_WRITES_PER_MINUTE')} | ${limit('RATE_LIMIT_WALLET_WRITES_PER_MINUTE')} |`,
    `| \`expensive\` | ${routes('expensive')} | ${limit('RATE_LIMIT_EXPENSIVE_PER_MINUTE')} | ${limit('RATE_LIMIT_WALLET_EXPENSIVE_PER_MINUTE')} |`,
    `| \`read\` | ${routes('read')}; manifests, the IPFS gateway and the \`POST /api/mcp\` request itself (its tool calls count as their operations) | ${limit('RATE_LIMIT_READS_PER_MINUTE')} | none |`,
    '| operator | `/healthz`, `/readyz`, `/metrics` | none | none |',
  ].join('\n')
}

/** Each generated page and the tables it holds, by marker name. */
export const pages: Record<string, Record<string, () => string>> = {
  'docs/operators/configuration.md': { config: configTable },
  'docs/agents/endpoints.md': { endpoints: endpointTable },
  'docs/agents/mcp.md': { 'mcp-tools': mcpToolTable },
  'docs/agents/errors.md': { errors: errorTable },
  'docs/operators/abuse-resistance.md': { limits: limitsTable },
}

/** The page with every table of `sections` rebuilt between its markers; a missing marker is an error. */
export function render(page: string, text: string, sections: Record<string, () => string> = pages[page] ?? {}): string {
  let out = text
  for (const [name, build] of Object.entries(sections)) {
    const pattern = new RegExp(`(<!-- ${name}:start -->)[\\s\\S]*?(<!-- ${name}:end -->)`)
    if (!pattern.test(out)) throw new Error(`${page} has no <!-- ${name}:start --> marker`)
    out = out.replace(pattern, (_m, start: string, end: string) => `${start}\n${build()}\n${end}`)
  }
  return out
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const page of Object.keys(pages)) {
    const text = await readFile(page, 'utf8')
    const rendered = render(page, text)
    if (rendered !== text) await writeFile(page, rendered)
    console.log(`${page}: ${rendered === text ? 'up to date' : 'tables regenerated'}`)
  }
}
