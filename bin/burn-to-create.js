#!/usr/bin/env node
// The package's command (npx burn-to-create). Runs the compiled CLI, bundled into one file
// (dist/cli/bundle.mjs, scripts/build.ts), when dist/ is the build of the current sources (the
// rule of `npm start`, scripts/source-hash.mjs; it starts in about a third of the time),
// otherwise the TypeScript sources through tsx, a regular
// dependency, so it works from a fresh checkout and from an installed package alike.
import { existsSync } from 'node:fs'
import { importBuiltOrSource } from '../scripts/source-hash.mjs'

// The bundle is missing only where esbuild could not run at build time.
const bundle = new URL('../dist/cli/bundle.mjs', import.meta.url)
const compiled = existsSync(bundle) ? bundle : new URL('../dist/cli/main.js', import.meta.url)
const { main } = await importBuiltOrSource(compiled.href, new URL('../src/cli/main.ts', import.meta.url).href)
process.exit(await main(process.argv.slice(2)))
