/** Runs the named benchmarks (all by default) and prints Markdown tables for bench/README.md. */
import { benchHttpReads } from './http-reads.ts'
import { benchLooksmaxx } from './looksmaxx.ts'
import { benchReadSide } from './read-side.ts'
import { benchStream } from './stream.ts'
import { benchGasless } from './gasless.ts'
import { benchImageBomb } from './image-bomb.ts'
import { benchSoak } from './soak.ts'

const benches: Record<string, () => Promise<string>> = {
  'http-reads': () => benchHttpReads(Number(process.env.BENCH_SECONDS ?? 8)),
  looksmaxx: () => benchLooksmaxx(),
  // BENCH_DATABASE_URL: an empty PostgreSQL database to run it on instead of PGlite.
  'read-side': () => benchReadSide(Number(process.env.BENCH_SECONDS ?? 8), process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}),
  gasless: () => benchGasless(),
  stream: () => benchStream(Number(process.env.BENCH_CLIENTS ?? 5000)),
  'image-bomb': () => benchImageBomb(),
  // Not in the default run (10 minutes): npm run bench -- soak (SOAK_SECONDS to shorten it).
  soak: () => benchSoak(),
}

const names = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(benches).filter((name) => name !== 'soak')
for (const name of names) {
  const bench = benches[name]
  if (!bench) throw new Error(`unknown benchmark ${name}; known: ${Object.keys(benches).join(', ')}`)
  console.log(`\n## ${name} (${new Date().toISOString()})\n`)
  console.log(await bench())
}
process.exit(0)
