#!/usr/bin/env node
// The package's command (npx burn-to-create). Runs the compiled CLI from dist/ when dist/ is the
// build of the current sources (the rule of `npm start`, scripts/source-hash.mjs; loading it
// takes about half the time), otherwise the TypeScript sources through tsx, a regular
// dependency, so it works from a fresh checkout and from an installed package alike.
import { isBuilt } from '../scripts/source-hash.mjs'

let built = false
try {
  built = isBuilt()
} catch {
  // no TypeScript package to hash with (an install without devDependencies): run the sources
}
let main
if (built) {
  ;({ main } = await import('../dist/cli/main.js'))
} else {
  const { register } = await import('tsx/esm/api')
  register()
  ;({ main } = await import('../src/cli/main.ts'))
}
process.exit(await main(process.argv.slice(2)))
