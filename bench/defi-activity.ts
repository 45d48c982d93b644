/**
 * GET /api/defi/activity at the largest lookback (blocks=50000, limit=200) over 10,000
 * activity rows spread across the last 50,000 blocks: cold (the answer not cached: the
 * query runs) and warm (under load, cached), next to a bare Fastify route returning the same
 * bytes. The indexer runs, as in production: the devnet mines 100,000 (empty) blocks, the
 * indexer follows them, and the rows are written at those blocks with the indexer's own store
 * function (as the indexer writes them), not mined as transactions: 10,000 transactions would
 * take minutes and measure the devnet, not the route. Run: node --import tsx bench/defi-activity.ts
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { randomBytes } from 'node:crypto'
import { privateKeyToAccount } from 'viem/accounts'
import { startDevnet } from '../src/devnet/start-devnet.ts'
import { loadConfig } from '../src/config/load.ts'
import { createApp } from '../src/app.ts'
import { insertDefiActivity, type DefiActivityRow } from '../src/store/defi-activity.ts'
import { ratio, runBaseline, runLoad, table } from './support.ts'
import { runDate, yesNo, type BenchResult, type Headline } from './summary.ts'

const KINDS = ['burn', 'stake', 'unstake', 'claim', 'send', 'vote'] as const

/** Cold: a request that runs the query; warm: a ratio to the bare route. */
const TARGET_COLD_MS = 200
const TARGET_WARM = 0.8

export async function benchDefiActivity(seconds = 8): Promise<BenchResult> {
  const devnet = await startDevnet({ host: '127.0.0.1', port: 0 })
  const dataDir = await mkdtemp(path.join(tmpdir(), 'b2c-bench-'))
  const app = await createApp(loadConfig({ PORT: '0', LOG_LEVEL: 'silent', RPC_URL: devnet.url, DATA_DIR: dataDir }))
  const url = await app.listen()
  const rows: Array<Record<string, string | number>> = []
  let headline: Headline | undefined
  try {
    // A chain 100,000 blocks long, indexed by the running indexer: the rows sit at real blocks.
    await fetch(devnet.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'hardhat_mine', params: ['0x186a0'] }) })
    let head = 0n
    for (const deadline = Date.now() + 120_000; head < 100_000n; ) {
      if (Date.now() > deadline) throw new Error('the indexer did not follow the devnet within 120 s')
      app.ctx.indexer.poke()
      await new Promise((r) => setTimeout(r, 200))
      head = BigInt((await app.ctx.db.query<{ n: string }>(`SELECT block_number AS n FROM indexer_cursor WHERE name = 'main'`)).rows[0]?.n ?? 0)
    }
    const actors = Array.from({ length: 500 }, () => privateKeyToAccount(`0x${randomBytes(32).toString('hex')}`).address)
    const activity: DefiActivityRow[] = Array.from({ length: 10_000 }, (_, n) => ({
      blockNumber: head - BigInt(n * 5), logIndex: n % 4, txHash: `0x${randomBytes(32).toString('hex')}`, kind: KINDS[n % KINDS.length]!,
      actor: actors[n % actors.length]!, amount: BigInt(n + 1) * 10n ** 18n, extra: (n % 2 ? { venue: 'mogger' } : { venue: 'jester', pid: '0' }) as Record<string, string>,
    }))
    await app.ctx.db.transaction((tx) => insertDefiActivity(tx, activity, (b) => new Date(Date.now() - Number(head - b) * 1000)))
    const route = '/api/defi/activity?limit=200&blocks=50000'
    // Cold: the first request of each key after the cache (2 s) and stale window (5 s) have lapsed.
    const cold: number[] = []
    for (let i = 0; i < 10; i++) {
      await new Promise((r) => setTimeout(r, 7100))
      const t = performance.now()
      const response = await fetch(`${url}${route}`)
      await response.arrayBuffer()
      cold.push(performance.now() - t)
    }
    cold.sort((a, b) => a - b)
    const bytes = Buffer.from(await (await fetch(`${url}${route}`)).arrayBuffer())
    const body = JSON.parse(bytes.toString())
    if (body.count !== 200) throw new Error(`expected 200 items, got ${body.count}`)
    const base = await runBaseline(bytes, seconds)
    const warm = await runLoad(`${url}${route}`, { seconds })
    rows.push({ measure: `cold: one request, cache and stale window lapsed (10 runs)`, 'p50 ms': cold[5]!.toFixed(1), 'max ms': cold[9]!.toFixed(1), 'req/s': '', 'vs same bytes': '' })
    rows.push({ measure: `bare Fastify, same ${bytes.length} bytes`, 'p50 ms': base.p50Ms, 'max ms': base.p99Ms, 'req/s': base.requestsPerSec, 'vs same bytes': '1.00' })
    headline = {
      name: 'defi-activity',
      figure: `cold p50 ${cold[5]!.toFixed(1)} ms (max ${cold[9]!.toFixed(1)}); warm ${warm.requestsPerSec} req/s (200 items, ${bytes.length} bytes)`,
      baseline: `bare Fastify, same bytes: ${base.requestsPerSec} req/s`,
      ratio: ratio(warm, base),
      target: `cold ≤ ${TARGET_COLD_MS} ms; warm ≥ ${TARGET_WARM.toFixed(2)} of the baseline`,
      met: `cold ${yesNo(cold[9]! <= TARGET_COLD_MS)}, warm ${yesNo(Number(ratio(warm, base)) >= TARGET_WARM)}`,
      date: runDate(),
    }
    rows.push({ measure: `${route} warm (100 connections)`, 'p50 ms': warm.p50Ms, 'max ms': warm.p99Ms, 'req/s': warm.requestsPerSec, 'vs same bytes': ratio(warm, base) })
  } finally {
    await app.close()
    await devnet.close()
    await rm(dataDir, { recursive: true, force: true })
  }
  return { section: table(rows), headlines: headline ? [headline] : [] }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log((await benchDefiActivity(Number(process.env.BENCH_SECONDS ?? 8))).section)
  process.exit(0)
}
