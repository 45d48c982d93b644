import { timingSafeEqual } from 'node:crypto'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Redis } from 'ioredis'
import type { Context } from '../context.ts'
import type { Metrics } from './metrics.ts'
import { AppError } from '../errors/app-error.ts'
import { pingDb } from '../store/ops-stats.ts'
import { readIndexerLag } from './indexer-lag.ts'
import { isPrivateAddress } from './client-address.ts'

/** A dependency that does not answer within this long counts as down. */
const CHECK_TIMEOUT_MS = 2_000

export type Check = { ok: boolean; ms: number; error?: string } & Record<string, unknown>

/**
 * The operator's endpoints: plain routes of the HTTP adapter, not registry operations. They
 * describe this process to a load balancer and to Prometheus, not the protocol to an agent, so
 * they stay out of OpenAPI, MCP, the agent index and the rate limits.
 */
export function mountOpsRoutes(app: FastifyInstance, ctx: Context, options: { metrics: Metrics; redis?: Redis }) {
  // Alive: the event loop answers. No dependency is asked, so a database outage never gets
  // every instance restarted at once.
  app.get('/healthz', async (_request, reply) => reply.header('cache-control', 'no-store').send({ status: 'ok' }))

  app.get('/readyz', async (_request, reply) => {
    const checks = await readiness(ctx, options.redis)
    const failing = Object.entries(checks)
      .filter(([, check]) => !check.ok)
      .map(([name]) => name)
    reply.header('cache-control', 'no-store')
    if (failing.length === 0) return reply.send({ status: 'ready', checks })
    const error = new AppError('SERVICE_UNAVAILABLE', `Not ready: ${failing.join(', ')}.`, { details: { notReady: failing, checks } })
    return reply.code(503).send(error.toBody())
  })

  // Host-checked (a rebinding page cannot read it as same-origin) and without CORS headers (no
  // other page may read it cross-origin): it names hot keys, nonces and pending transactions.
  app.get('/metrics', { config: { hostCheck: true } }, async (request, reply) => {
    reply.removeHeader('access-control-allow-origin')
    reply.removeHeader('access-control-expose-headers')
    authorizeScrape(ctx, request)
    const text = await options.metrics.registry.metrics()
    return reply.header('cache-control', 'no-store').type(options.metrics.registry.contentType).send(text)
  })
}

/**
 * With METRICS_TOKEN set, a scrape must send it as a bearer token (compared in constant time).
 * Without it, only a scraper on this machine or a private network is answered.
 */
function authorizeScrape(ctx: Context, request: FastifyRequest) {
  const token = ctx.config.METRICS_TOKEN?.reveal()
  if (!token) {
    if (isPrivateAddress(request.ip)) return
    throw new AppError('UNAUTHORIZED', '/metrics answers clients on a private network only, unless METRICS_TOKEN is set (then send it as Authorization: Bearer <token>).')
  }
  const sent = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? ''
  const a = Buffer.from(sent)
  const b = Buffer.from(token)
  if (a.length !== b.length || !timingSafeEqual(a, b)) {
    throw new AppError('UNAUTHORIZED', '/metrics needs the METRICS_TOKEN as Authorization: Bearer <token>.')
  }
}

/** Every dependency a request may need, checked at once, each bounded by CHECK_TIMEOUT_MS. */
export async function readiness(ctx: Context, redis?: Redis): Promise<Record<string, Check>> {
  const max = ctx.config.READY_MAX_INDEXER_LAG
  const [database, indexer, redisCheck] = await Promise.all([
    timed(() => pingDb(ctx.db)),
    timed(async () => {
      const lag = await readIndexerLag(ctx)
      return { head: lag.head.toString(), indexed: lag.indexed?.toString() ?? null, lag: lag.lag === undefined ? null : Number(lag.lag), maxLag: max }
    }),
    redis ? timed(() => redis.ping()) : undefined,
  ])
  // The chain head is read by the indexer check: its failure is the RPC's.
  const rpc: Check = indexer.ok ? { ok: true, ms: indexer.ms, head: indexer.head } : { ok: false, ms: indexer.ms, error: indexer.error }
  const lag = indexer.lag as number | null | undefined
  const indexerCheck: Check = !indexer.ok
    ? { ok: false, ms: indexer.ms, error: 'the chain head cannot be read' }
    : lag === null
      ? { ok: false, ms: indexer.ms, error: 'the indexer has not completed a pass yet', maxLag: max }
      : { ok: lag! <= max, ms: indexer.ms, lag, maxLag: max, ...(lag! > max ? { error: `${lag} blocks behind, more than ${max}` } : {}) }
  return { database: database.ok ? { ok: true, ms: database.ms } : database, rpc, ...(redisCheck ? { redis: redisCheck.ok ? { ok: true, ms: redisCheck.ms } : redisCheck } : {}), indexer: indexerCheck }
}

async function timed<T>(run: () => Promise<T>): Promise<Check> {
  const started = performance.now()
  let timer: NodeJS.Timeout | undefined
  try {
    const value = await Promise.race([
      run(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS)
      }),
    ])
    const extra = value && typeof value === 'object' ? (value as Record<string, unknown>) : {}
    return { ...extra, ok: true, ms: Math.round(performance.now() - started) }
  } catch (error) {
    // The error's class and first line only: never an upstream URL that may carry a key.
    const message = error instanceof Error ? `${error.name}: ${(error.message.split('\n')[0] ?? '').replace(/https?:\/\/\S+/g, '<url>')}` : 'failed'
    return { ok: false, ms: Math.round(performance.now() - started), error: message }
  } finally {
    clearTimeout(timer)
  }
}


