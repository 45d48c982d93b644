/**
 * GET /api/price and GET /api/stats at 100 connections, next to a bare Fastify route that
 * returns the same bytes, measured in the same run. Usage: npm run bench -- http-reads
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { startDevnet } from '../src/devnet/start-devnet.ts'
import { loadConfig } from '../src/config/load.ts'
import { createApp } from '../src/app.ts'
import { ratio, runBaseline, runLoad, table } from './support.ts'
import { runDate, yesNo, type BenchResult } from './summary.ts'

/** Cached reads: at least this ratio to the bare route (issue 26). */
const TARGET = 0.85

export async function benchHttpReads(seconds = 8): Promise<BenchResult> {
  const devnet = await startDevnet({ host: '127.0.0.1', port: 0 })
  const dataDir = await mkdtemp(path.join(tmpdir(), 'b2c-bench-'))
  const app = await createApp(loadConfig({ PORT: '0', LOG_LEVEL: 'silent', RPC_URL: devnet.url, DATA_DIR: dataDir }))
  const url = await app.listen()
  const rows: Array<Record<string, string | number>> = []
  const pairs: Array<{ route: string; base: number; service: number; ratio: string }> = []
  try {
    for (const route of ['/api/price', '/api/stats']) {
      const answer = await fetch(`${url}${route}`)
      const bytes = Buffer.from(await answer.arrayBuffer())
      // The headers the service sends with it (security headers, request ID, ETag, Cache-Control,
      // Vary, X-Block-Number), but those Node writes itself: what a bare route sending them costs.
      const headers = Object.fromEntries([...answer.headers].filter(([name]) => !['date', 'connection', 'keep-alive', 'content-length', 'content-type'].includes(name)))
      const base = await runBaseline(bytes, seconds)
      const service = await runLoad(`${url}${route}`, { seconds })
      const withHeaders = await runBaseline(bytes, seconds, headers)
      pairs.push({ route, base: base.requestsPerSec, service: service.requestsPerSec, ratio: ratio(service, base) })
      rows.push(
        { route: `bare Fastify, same ${bytes.length} bytes`, 'req/s': base.requestsPerSec, 'p99 ms': base.p99Ms, ratio: '1.00', non2xx: base.non2xx },
        {
          route: `${route} (cache on)`,
          'req/s': service.requestsPerSec,
          'p99 ms': service.p99Ms,
          ratio: ratio(service, base),
          non2xx: service.non2xx,
        },
        {
          route: `bare Fastify, same bytes and the service's ${Object.keys(headers).length} headers (for comparison)`,
          'req/s': withHeaders.requestsPerSec,
          'p99 ms': withHeaders.p99Ms,
          ratio: ratio(withHeaders, base),
          non2xx: withHeaders.non2xx,
        },
      )
    }
  } finally {
    await app.close()
    await devnet.close()
    await rm(dataDir, { recursive: true, force: true })
  }
  return {
    section: table(rows),
    headlines: [
      {
        name: 'http-reads',
        figure: `${pairs.map((p) => `\`${p.route}\` ${p.service} req/s`).join(', ')} (cache on)`,
        baseline: `bare Fastify ${pairs.map((p) => p.base).join(' / ')} req/s`,
        ratio: pairs.map((p) => p.ratio).join(' / '),
        target: `≥ ${TARGET.toFixed(2)} of the baseline`,
        met: yesNo(pairs.every((p) => Number(p.ratio) >= TARGET)),
        date: runDate(),
      },
    ],
  }
}
