import { readdirSync } from 'node:fs'
import { join } from 'node:path'

/** fs.globSync (Node 22) for the '**' + '/NAME' patterns the MCP conformance suite uses, on Node 20. */
export function globSync(pattern, options = {}) {
  const cwd = options.cwd ?? process.cwd()
  const name = pattern.replace(/^\*\*\//, '')
  let entries = []
  try {
    entries = readdirSync(cwd, { recursive: true })
  } catch {
    return []
  }
  return entries.map(String).filter((entry) => entry.split('/').pop() === name).map((entry) => (options.withFileTypes ? join(cwd, entry) : entry))
}
