/**
 * Regenerates the tables of README.md that derive from code (configuration, endpoints,
 * error codes) between their markers. `npm run docs`; a test fails when they are stale.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { envSchema } from '../src/config/schema.ts'
import { errorCodes } from '../src/errors/codes.ts'
import { operations } from '../src/operations/index.ts'
import { mcpToolOperations } from '../src/operations/define.ts'

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

export function endpointTable(): string {
  const rows = operations.map(
    (op) => `| ${op.method} | \`${op.path}\` | \`${op.id}\` | ${op.summary} | ${op.mcp === false ? 'no' : 'yes'} |`,
  )
  return ['| method | path | operation (MCP tool) | what it does | MCP |', '| --- | --- | --- | --- | --- |', ...rows].join('\n')
}

/** The MCP tools (the operations not marked `mcp: false`), in registry order. */
export function mcpToolTable(): string {
  const rows = mcpToolOperations(operations).map(
    (op, i) => `| ${i + 1} | \`${op.id}\` | ${op.tags.join(', ')} | \`${op.method} ${op.path}\` | ${op.summary} |`,
  )
  return ['| # | tool | capability | HTTP twin | what it covers |', '| --- | --- | --- | --- | --- |', ...rows].join('\n')
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
