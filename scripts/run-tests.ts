/**
 * Finds every *.test.ts under test/ and src/ and runs them with node:test (Node 20 does not
 * expand globs itself). Arguments narrow the run: `npm test -- test/http`.
 */
import { readdirSync, statSync } from 'node:fs'
import path from 'node:path'
import { spawn } from 'node:child_process'
import { build } from './build.ts'

function find(dir: string): string[] {
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) return dir.endsWith('.test.ts') ? [dir] : []
  return readdirSync(dir).flatMap((name) => {
    if (name === 'node_modules' || name.startsWith('.')) return []
    return find(path.join(dir, name))
  })
}

const roots = process.argv.slice(2).length ? process.argv.slice(2) : ['test', 'src']
const files = roots.flatMap(find).sort()
if (files.length === 0) {
  console.error(`no test files under ${roots.join(', ')}`)
  process.exit(1)
}
// Tests that boot the service in a process of its own start it from dist/ (no TypeScript
// loading per boot): build it once here, before the files run in parallel.
const started = Date.now()
if (build({ ifChanged: true })) console.error(`# built dist/ in ${Date.now() - started} ms`)
const child = spawn(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-timeout=300000', ...files],
  { stdio: 'inherit' },
)
child.on('exit', (code) => process.exit(code ?? 1))
