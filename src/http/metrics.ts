import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client'
import { registerRequestMetrics } from './request-metrics.ts'
import type { Context } from '../context.ts'
import { countSubmissionsByStatus, senderStats } from '../store/ops-stats.ts'
import { sharedInFlight } from '../util/cached-for.ts'
import { readIndexerLag } from './indexer-lag.ts'

export type Metrics = {
  registry: Registry
  /** One answered request: `route` is the route pattern (`/api/metadata/:tokenId`), never the raw URL. */
  observeRequest(method: string, route: string, status: number, seconds: number): void
  streamOpened(): void
  streamClosed(): void
  rateLimited(limitClass: string, scope: 'ip' | 'wallet'): void
}

/** Route patterns times statuses: bounded by the routes; the bound only guards against a bug. */
const MAX_SERIES = 10_000

/** Latency buckets, in seconds: cached reads answer in about a millisecond, a looksmaxx in seconds. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 90]

/**
 * The Prometheus metrics of one app instance, in a registry of its own (several apps may share
 * a test process). Counters of requests are kept as they happen; the gauges that describe shared
 * state (owed submissions, indexer lag, sender nonces) are read when Prometheus scrapes, so every
 * instance reports the same truth from the database and the chain.
 */
export function createMetrics(ctx: Context): Metrics {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  // A scrape collects every gauge at once: the gauges that read the same rows share one query.
  const submissionsByStatus = sharedInFlight(() => countSubmissionsByStatus(ctx.db))
  const senders = sharedInFlight(() => senderStats(ctx.db))

  /** A counter of a running total kept elsewhere: what it grew by since the last scrape. */
  function countedAtScrape(name: string, help: string, total: () => number) {
    let seen = 0
    new Counter({
      name,
      help,
      registers: [registry],
      collect() {
        const now = total()
        this.inc(Math.max(0, now - seen))
        seen = now
      },
    })
  }

  /**
   * A gauge with one series per row of a shared read, replaced whole at each scrape (a label
   * whose rows are gone disappears). A failed read keeps the last values.
   */
  function gaugeOfRows<Row>(name: string, help: string, label: string, rows: () => Promise<Row[]>, series: (row: Row) => [labelValue: string, value: number]) {
    new Gauge({
      name,
      help,
      labelNames: [label],
      registers: [registry],
      async collect() {
        const read = await rows().catch(() => undefined)
        if (!read) return
        this.reset()
        for (const row of read) {
          const [labelValue, value] = series(row)
          this.set({ [label]: labelValue }, value)
        }
      },
    })
  }

  const requests = registerRequestMetrics(registry, { buckets: LATENCY_BUCKETS, maxSeries: MAX_SERIES })
  const streams = new Gauge({ name: 'sse_clients', help: 'Event-stream clients connected to this instance.', registers: [registry] })
  const limited = new Counter({
    name: 'rate_limited_total',
    help: 'Requests refused with 429, by limit class and scope (ip or wallet).',
    labelNames: ['class', 'scope'] as const,
    registers: [registry],
  })

  countedAtScrape('rpc_requests_total', 'JSON-RPC HTTP requests this instance sent (a batch or multicall counts once).', () => ctx.chain.rpcRequestCount())
  countedAtScrape('rpc_errors_total', 'JSON-RPC HTTP requests that got no answer or a non-2xx status.', () => ctx.chain.rpcErrorCount())
  countedAtScrape('rpc_retries_total', 'JSON-RPC HTTP requests sent again after a 429 (as Retry-After says), a 5xx, a timeout or a dropped connection.', () => ctx.chain.rpcRetryCount())

  gaugeOfRows('pipeline_submissions', 'Looksmaxx submissions by pipeline step reached (settling, settled, generated, pinned, minted), all instances.', 'status', submissionsByStatus, (row) => [row.status, row.count])
  new Gauge({
    name: 'pipeline_owed_submissions',
    help: 'Submissions claimed (and paid for) but not minted yet, all instances: work the pipeline owes.',
    registers: [registry],
    async collect() {
      const rows = await submissionsByStatus().catch(() => undefined)
      if (rows) this.set(rows.filter((row) => row.status !== 'minted').reduce((sum, row) => sum + row.count, 0))
    },
  })

  new Gauge({
    name: 'indexer_lag_blocks',
    help: 'Blocks between the chain head and the last block the indexer applied.',
    registers: [registry],
    async collect() {
      const lag = await readIndexerLag(ctx).catch(() => undefined)
      if (lag?.lag !== undefined) this.set(Number(lag.lag))
    },
  })

  gaugeOfRows('sender_highest_nonce', 'Highest nonce each hot key of the service used.', 'sender', senders, (row) => [row.sender, row.highestNonce])
  gaugeOfRows('sender_pending_transactions', 'Transactions of each hot key waiting for a receipt.', 'sender', senders, (row) => [row.sender, row.pending])

  return {
    registry,
    observeRequest: (method, route, status, seconds) => requests.observe(method, route, status, seconds),
    streamOpened: () => streams.inc(),
    streamClosed: () => streams.dec(),
    rateLimited: (limitClass, scope) => limited.inc({ class: limitClass, scope }),
  }
}
