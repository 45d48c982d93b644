#!/usr/bin/env node
// The package's command (npx burn-to-create). Runs the compiled CLI from dist/ when it was built
// after the last change under src/ (`npm run build`; loading it takes about half the time), and
// otherwise the TypeScript sources through tsx, a regular dependency, so it works from a fresh
// checkout and from an installed package alike.
import { existsSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

function newestChange(dir) {
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name)
    newest = Math.max(newest, entry.isDirectory() ? newestChange(full) : statSync(full).mtimeMs)
  }
  return newest
}

const built = path.join(root, 'dist', '.build-hash')
const compiled = existsSync(built) && existsSync(path.join(root, 'dist', 'cli', 'main.js')) && statSync(built).mtimeMs >= newestChange(path.join(root, 'src'))
let main
if (compiled) {
  ;({ main } = await import('../dist/cli/main.js'))
} else {
  const { register } = await import('tsx/esm/api')
  register()
  ;({ main } = await import('../src/cli/main.ts'))
}
process.exit(await main(process.argv.slice(2)))
