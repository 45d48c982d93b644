/**
 * Runs the named benchmarks (all by default), prints each one's Markdown section, and rewrites
 * bench/README.md: the Summary table's rows of the benchmarks that ran (the others are kept), and
 * each one's latest-run block where its section has `<!-- run:<name>:start/end -->` markers.
 * BENCH_README=0 only prints.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { fileURLToPath } from 'node:url'
import { benchHttpReads } from './http-reads.ts'
import { benchLooksmaxx } from './looksmaxx.ts'
import { benchReadSide } from './read-side.ts'
import { benchStream } from './stream.ts'
import { benchGasless } from './gasless.ts'
import { benchImageBomb } from './image-bomb.ts'
import { benchSoak } from './soak.ts'
import { benchDefiActivity } from './defi-activity.ts'
import { benchSimulatedPlans } from './simulated-plans.ts'
import { benchStartup } from './startup.ts'
import { benchRehearse } from './rehearse.ts'
import { rewriteRun, rewriteSummary, type BenchResult } from './summary.ts'
import { REFERENCE_MS, yardstickNow } from '../test/support/machine-speed.ts'

const seconds = (fallback: number) => Number(process.env.BENCH_SECONDS ?? fallback)

const benches: Record<string, () => Promise<BenchResult>> = {
  'http-reads': () => benchHttpReads(seconds(8)),
  looksmaxx: () => benchLooksmaxx(),
  // BENCH_DATABASE_URL: an empty PostgreSQL database to run it on instead of PGlite.
  'read-side': () => benchReadSide(seconds(8), process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}),
  gasless: () => benchGasless(),
  // BENCH_DATABASE_URL and BENCH_REDIS_URL: also two processes on PostgreSQL and Redis.
  stream: () => benchStream(Number(process.env.BENCH_CLIENTS ?? 10_000)),
  'image-bomb': () => benchImageBomb(),
  'defi-activity': () => benchDefiActivity(seconds(8)),
  'simulated-plans': () => benchSimulatedPlans(),
  // `npm start` cold and warm, against a bare Fastify start (bench/startup.ts; --runs etc. when run alone).
  'start-up': () => benchStartup(),
  // Not in the default run (10 minutes): npm run bench -- soak (SOAK_SECONDS to shorten it).
  soak: () => benchSoak(),
  // Not in the default run: `npm run rehearse` (bench/rehearse.ts; REHEARSE_SCALE=short for a tenth).
  rehearse: () => benchRehearse(),
}

const README = fileURLToPath(new URL('./README.md', import.meta.url))
const load = () => loadavg().map((n) => n.toFixed(2)).join(' ')

const names = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(benches).filter((name) => name !== 'soak' && name !== 'rehearse')
for (const name of names) if (!benches[name]) throw new Error(`unknown benchmark ${name}; known: ${Object.keys(benches).join(', ')}`)

const done: Array<{ name: string; result: BenchResult; markdown: string }> = []
let failure: unknown
for (const name of names) {
  const started = new Date()
  const loadBefore = load()
  // The host's speed beside the load: this VM's host has run the same work 3× slower from one
  // hour to the next with the load average unchanged, and absolute figures scale with it.
  const speedMs = Math.round(yardstickNow())
  let result: BenchResult
  try {
    result = await benches[name]!()
  } catch (error) {
    // The benchmarks that finished are still written; this one keeps its old rows.
    failure = error
    console.error(`${name} failed:`, error)
    break
  }
  // The conditions go with the figures: on a shared machine they decide what the figures mean.
  const markdown = `Run of ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC by \`npm run bench -- ${name}\`${process.env.BENCH_SECONDS ? ` (BENCH_SECONDS=${process.env.BENCH_SECONDS})` : ''}; load average (1, 5, 15 min) ${loadBefore} before, ${load()} after; machine speed: the yardstick of test/support/machine-speed.ts took ${speedMs} ms of CPU at the start (${REFERENCE_MS} ms on the reference machine).\n\n${result.section}`
  console.log(`\n## ${name}\n\n${markdown}\n`)
  // The date cell carries the 1-minute load average and the yardstick at the start: a target
  // missed at load 8 on two cores, or met on a host twice as fast as usual, says little about the code.
  const oneMinute = loadBefore.split(' ')[0]
  done.push({ name, result: { ...result, headlines: result.headlines.map((h) => ({ ...h, date: `${h.date} (load ${oneMinute}, yardstick ${speedMs} ms of ${REFERENCE_MS})` })) }, markdown })
}

if (process.env.BENCH_README !== '0' && done.length > 0) {
  let readme = readFileSync(README, 'utf8')
  readme = rewriteSummary(readme, done.map((d) => d.name), done.flatMap((d) => d.result.headlines))
  for (const { name, markdown } of done) {
    const next = rewriteRun(readme, name, markdown)
    if (next === undefined) console.log(`(bench/README.md has no run markers for ${name}: its section above is printed only)`)
    else readme = next
  }
  writeFileSync(README, readme)
  console.log(`bench/README.md: Summary rows of ${done.map((d) => d.name).join(', ')} rewritten`)
}
if (failure) process.exit(1)
process.exit(0)
