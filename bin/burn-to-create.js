#!/usr/bin/env node
// The package's command (npx burn-to-create). Runs the compiled CLI, bundled into one file
// (dist/cli/bundle.mjs, scripts/build.ts), when dist/ is the build of the current sources (the
// rule of `npm start`, scripts/source-hash.mjs; it starts in about a third of the time),
// otherwise the TypeScript sources through tsx, a regular
// dependency, so it works from a fresh checkout and from an installed package alike.
import { importBuiltOrSource } from '../scripts/source-hash.mjs'

const { main } = await importBuiltOrSource(new URL('../dist/cli/bundle.mjs', import.meta.url).href, new URL('../src/cli/main.ts', import.meta.url).href)
process.exit(await main(process.argv.slice(2)))
