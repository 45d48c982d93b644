#!/usr/bin/env node
// The package's command (npx burn-to-create). Runs the TypeScript CLI through tsx, a regular
// dependency, so it works from a checkout and from an installed package alike.
import { register } from 'tsx/esm/api'
register()
const { main } = await import('../src/cli/main.ts')
process.exit(await main(process.argv.slice(2)))
