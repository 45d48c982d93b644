import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify'
import { randomUUID } from 'node:crypto'
import type { Context } from '../context.ts'
import type { AnyOperation, Streamed } from '../operations/define.ts'
import { AppError } from '../errors/app-error.ts'
import { toAppError } from '../operations/runtime/errors.ts'
import { parseMinBlock, type Caller, type OperationServing, type Served, type Serving } from '../operations/runtime/serve.ts'
import type { LimitState } from '../operations/runtime/limits.ts'
import { acceptsGzip, appendVary, gzipEtag, gzipOf, isCompressible } from './compress.ts'
import { mountMcpRoute } from './mcp-route.ts'
import type { Redis } from 'ioredis'
import cors from '@fastify/cors'
import { createMetrics } from './metrics.ts'
import { mountOpsRoutes } from './ops-routes.ts'
import { requireJsonBody } from './content-type.ts'
import { createHostCheck } from './host-check.ts'
import { trustProxyOf } from './client-address.ts'
import { sseWriter } from './sse-writer.ts'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** An operation's route: it answers `Connection: close` itself while stopping. */
    operation?: boolean
    /** Checked against the allowed hosts whatever its method (MCP, /metrics); every write is. */
    hostCheck?: boolean
  }
}

/** Large enough for a 4 MB portrait in base64 plus the rest of the body (MCP tool calls carry it too). */
const BODY_LIMIT = 7 * 1024 * 1024
/**
 * Sent with every answer (pages and documents that need more set their own policy): nothing in a
 * JSON, SVG or IPFS answer may run or load anything, be framed, or leak the URL in a Referer.
 */
const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
}

/** Headers a browser may send and read (CORS; docs/operators/abuse-resistance.md). */
const ALLOWED_HEADERS = ['Content-Type', 'X-PAYMENT', 'PAYMENT-SIGNATURE', 'Access-Control-Expose-Headers', 'Last-Event-ID', 'If-None-Match', 'Mcp-Session-Id', 'MCP-Protocol-Version', 'X-Min-Block']
const EXPOSED_HEADERS = ['X-PAYMENT-RESPONSE', 'PAYMENT-RESPONSE', 'PAYMENT-REQUIRED', 'X-Payment-Required', 'X-402-Version', 'ETag', 'X-Request-Id', 'X-Block-Number', 'Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining']

export type HttpServerOptions = {
  /** Serving (limits, cache, freshness): the runtime HTTP, MCP and chat share. */
  serving: Serving
  /** Extra mounts that are transports of the registry rather than operations (SSE, IPFS gateway). */
  mounts?: Array<(app: FastifyInstance) => void>
  /** The Redis the rate limits count in, for /readyz (production). */
  redis?: Redis
}

/**
 * Mounts every operation of the registry as a route, plus the MCP endpoint that exposes the
 * same registry as tools. Nothing here knows what an operation does.
 */
export function createHttpServer(ctx: Context, operations: AnyOperation[], options: HttpServerOptions) {
  const { serving } = options
  const app = Fastify({
    loggerInstance: ctx.log as unknown as FastifyBaseLogger,
    // Fastify's own two lines per request are replaced by the one line of the onResponse hook.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: BODY_LIMIT,
    genReqId: () => randomUUID(),
    trustProxy: trustProxyOf(ctx.config),
    keepAliveTimeout: 65_000,
    // Requests that arrive while stopping get the JSON error body below, not Fastify's own.
    return503OnClosing: false,
    // A silent logger writes nothing, so a child per request (to bind its ID) is pure cost.
    ...(ctx.log.isLevelEnabled('fatal') ? {} : { childLoggerFactory: (logger: FastifyBaseLogger) => logger }),
  })
  const metrics = createMetrics(ctx)
  const streams = new Set<() => void>()
  let closing = false

  // One line per request, after the answer: what a person watching the terminal follows (the
  // log call is skipped when that level is off), and the request in the metrics.
  const logRequests = ctx.log.isLevelEnabled('info')
  // A callback hook: an async one costs a promise per request (hooks are most of what a cached
  // read costs beyond a bare route; bench/README.md, read-side).
  app.addHook('onResponse', (request, reply, done) => {
    if (logRequests) {
      const ms = Math.round(reply.elapsedTime)
      request.log.info({ method: request.method, path: request.url, status: reply.statusCode, ms, requestId: request.id }, `${request.method} ${request.url} ${reply.statusCode} ${ms} ms`)
    }
    // The route pattern, so /api/metadata/1 and /api/metadata/2 are one series; unknown URLs one more.
    metrics.observeRequest(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000)
    done()
  })

  const checkHost = createHostCheck(ctx.config)
  // A callback hook, not an async one: no promise per request for a few headers.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id)
    reply.headers(SECURITY_HEADERS)
    if (closing) {
      reply.header('connection', 'close')
      done(new AppError('SERVICE_UNAVAILABLE', 'The service is shutting down; retry on another instance.'))
      return
    }
    // Writes, MCP and /metrics answer only for the hosts this service is called by (DNS rebinding).
    if (request.method === 'POST' || request.routeOptions.config?.hostCheck) {
      try {
        checkHost(request)
      } catch (error) {
        done(error as Error)
        return
      }
    }
    done()
  })

  // A request in flight when the stop began answers with `Connection: close`: otherwise its
  // keep-alive socket stays open, idle, until keepAliveTimeout (65 s) and holds up the exit
  // (Fastify closes the connections idle at the moment close() starts, not those idle later).
  // Operation routes and the error handlers say so themselves; the other routes (MCP, ops,
  // mounts) get an onSend hook of their own. An app-wide onSend hook would put every answer
  // through Fastify's hook runner, a tenth of a cached read's cost.
  const closeWhenStopping = (reply: FastifyReply) => {
    if (closing) reply.header('connection', 'close')
  }
  const onSendClosing = (_request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: null, payload: unknown) => void) => {
    closeWhenStopping(reply)
    done(null, payload)
  }
  app.addHook('onRoute', (route) => {
    if (route.config?.operation) return
    route.onSend = [...(route.onSend ? [route.onSend].flat() : []), onSendClosing] as typeof route.onSend
  })

  // Stop: new requests get 503, stream clients get a close event (they reconnect elsewhere), and
  // Fastify's close then waits for the requests in flight.
  app.addHook('preClose', async () => {
    closing = true
    for (const end of streams) end()
  })

  // No endpoint relies on cookies or other ambient credentials (payments and burns are signed),
  // so any origin may call every endpoint, writes included; credentials are never allowed.
  const origins = ctx.config.CORS_ORIGINS.split(',').map((origin) => origin.trim()).filter(Boolean)
  const allowed = origins.includes('*') ? '*' : origins
  app.register(cors, {
    // Only a request that names an origin (a browser's) gets CORS headers: agents and servers
    // send none and have no use for them (about 250 bytes per answer). The plugin then adds
    // `Vary: Origin`, so a shared cache keeps the two kinds of answer apart.
    origin: (origin, callback) => callback(null, origin === undefined ? false : allowed),
    methods: ['GET', 'POST', 'OPTIONS'],
    allowedHeaders: ALLOWED_HEADERS,
    exposedHeaders: EXPOSED_HEADERS,
    credentials: false,
    maxAge: 86_400,
    // A preflight for any path answers 204, so the browser then gets the real 404 or 405.
    strictPreflight: false,
  })
  serving.limits.onRefusal(metrics.rateLimited)

  app.setErrorHandler((error, request, reply) => {
    const appError = toAppError(error)
    // An absent contract is the deployment's known shape (start-up named it once), not a failure:
    // logged at error level, every DeFi read on mainnet would page an operator.
    if (appError.code === 'NOT_DEPLOYED') request.log.debug({ code: appError.code, requestId: request.id }, 'not deployed here')
    else if (appError.status >= 500) request.log.error({ err: error, requestId: request.id }, 'request failed')
    // Every 5xx carries the request ID the log line above names; an internal error says no more.
    const body =
      appError.status >= 500 && appError.code === 'INTERNAL_ERROR'
        ? { error: { code: appError.code, message: 'internal error', details: { requestId: request.id } } }
        : appError.status >= 500
          ? withRequestId(appError.toBody(), request.id)
          : appError.toBody()
    const retryAfter = appError.details?.retryAfterSeconds
    if (typeof retryAfter === 'number') reply.header('retry-after', String(retryAfter))
    closeWhenStopping(reply)
    reply.code(appError.status).type('application/json').send(body)
  })

  app.setNotFoundHandler((request, reply) => {
    const known = operations.some((op) => matchesPath(op.path, request.url.split('?')[0]!))
    const error = known
      ? new AppError('METHOD_NOT_ALLOWED', `${request.method} is not allowed on ${request.url.split('?')[0]}.`)
      : new AppError('NOT_FOUND', `No route ${request.method} ${request.url.split('?')[0]}.`)
    closeWhenStopping(reply)
    reply.code(error.status).send(error.toBody())
  })

  const tracker: StreamTracker = {
    opened(end) {
      streams.add(end)
      metrics.streamOpened()
    },
    closed(end) {
      if (streams.delete(end)) metrics.streamClosed()
    },
  }
  for (const op of operations) mountOperation(app, ctx, serving.of(op), tracker, closeWhenStopping)
  mountMcpRoute(app, ctx, operations, serving)
  mountOpsRoutes(app, ctx, { metrics, redis: options.redis })
  for (const mount of options.mounts ?? []) mount(app)
  return app
}

/** Open event streams, so a stopping server can end them and /metrics can count them. */
type StreamTracker = { opened(end: () => void): void; closed(end: () => void): void }

function mountOperation(app: FastifyInstance, ctx: Context, serving: OperationServing, tracker: StreamTracker, closeWhenStopping: (reply: FastifyReply) => void) {
  const { op } = serving
  const url = op.path.replace(/\{(\w+)\}/g, ':$1')
  // Reads renewed by events: clients and CDNs may keep them but revalidate on every use (a 304
  // while nothing changed), so no downstream cache hides what the caller just did.
  const cacheControl =
    op.cacheControl ??
    (op.cacheSeconds && op.dependsOn
      ? 'public, no-cache'
      : op.cacheSeconds
        ? `public, max-age=${op.cacheSeconds}${op.staleSeconds ? `, stale-while-revalidate=${op.staleSeconds}` : ''}`
        : 'no-store')
  // The per-address limit is counted before the body is read: a refused client's upload is never parsed.
  const admit = async (request: FastifyRequest, reply: FastifyReply) => {
    const state = serving.admit({ address: request.ip })
    if (state) limitHeaders(reply, await state)
  }

  app.route({
    method: op.method,
    url,
    // Marks the route as answering `Connection: close` itself while stopping (no onSend hook).
    config: { operation: true },
    bodyLimit: op.bodyLimit ?? ctx.config.BODY_LIMIT_BYTES,
    // Refused before the body is read: a client over its limit, a body that is not JSON.
    onRequest: [...(serving.limitsAddresses ? [admit] : []), ...(op.method === 'POST' ? [requireJsonBody] : [])],
    // Not async: a cached read is answered in the same tick, without a promise (the common
    // case of a hot read); whatever must be awaited returns a promise.
    handler: (request: FastifyRequest, reply: FastifyReply) => {
      const raw = () => ({ ...(op.method === 'GET' ? (request.query as object) : ((request.body as object) ?? {})), ...(request.params as object) })
      const parsed = serving.parse(raw, op.method === 'GET' ? request.url : undefined)
      const caller: Caller = {
        transport: 'http',
        requestId: request.id,
        headers: request.headers as Record<string, string | undefined>,
        address: request.ip,
        admitted: true,
        // A client that needs an answer at least as new as a block (one a write of ours returned
        // in X-Block-Number) says so; the runtime first catches up with the shared database.
        minBlock: parseMinBlock((request.query as Record<string, unknown> | undefined)?.minBlock ?? request.headers['x-min-block']),
      }
      if (op.streams) return serving.stream(parsed, caller).then((streamed) => serveStream(request, reply, streamed, tracker))
      const served = serving.serve(parsed, caller)
      if (served instanceof Promise) return served.then((answer) => send(request, reply, answer))
      // Sent: return nothing (a returned reply is a thenable Fastify would wait on), unless the
      // gzip of this answer is still being made.
      const sent = send(request, reply, served)
      return sent instanceof Promise ? sent : undefined
    },
  })

  /** Sends an answer: its headers, a 304 for a matching ETag, gzip for clients that accept it. */
  function send(request: FastifyRequest, reply: FastifyReply, computed: Served): FastifyReply | Promise<FastifyReply> {
    // A handler that answers a 5xx itself (e.g. a looksmaxx still running) gets the same
    // request ID in its error body and in the log as a thrown error would.
    const response = computed.status >= 500 ? { ...computed, bytes: requestIdInErrorBytes(computed.bytes, request.id) } : computed
    if (response.status >= 500) request.log.warn({ requestId: request.id, status: response.status, operation: op.id }, 'request answered with a server error')

    reply.code(response.status)
    closeWhenStopping(reply)
    if (computed.limit) limitHeaders(reply, computed.limit)
    if (response.headers) reply.headers(response.headers)
    // Reads: the block the answer is exact as of. Writes: the block their effect is in, to
    // send back as X-Min-Block (or ?minBlock=) to any instance.
    if (computed.block !== undefined && (op.dependsOn || op.invalidates)) reply.header('x-block-number', computed.block.toString())
    reply.header('cache-control', response.status === 200 ? cacheControl : 'no-store')
    const contentType = response.headers?.['content-type'] ?? 'application/json; charset=utf-8'
    reply.header('content-type', contentType)
    // Large JSON (gallery, chadboard, OpenAPI) is bandwidth-bound: clients that accept gzip get
    // bytes compressed once per cached response.
    const compressible = isCompressible(response, contentType)
    const gzip = compressible && acceptsGzip(request.headers['accept-encoding'])
    // Added to the Vary the CORS hook may have set (Origin), not in its place.
    if (compressible) reply.header('vary', appendVary(reply.getHeader('vary'), 'accept-encoding'))
    if (op.method === 'GET' && response.status === 200) {
      const identityEtag = response.headers?.etag ?? response.etag
      const etag = gzip ? gzipEtag(identityEtag) : identityEtag
      reply.header('etag', etag)
      if (request.headers['if-none-match'] === etag) return reply.code(304).send()
    }
    if (gzip) {
      const compressed = gzipOf(response)
      if (Buffer.isBuffer(compressed)) return reply.header('content-encoding', 'gzip').send(compressed)
      return compressed.then((bytes) => reply.header('content-encoding', 'gzip').send(bytes))
    }
    return reply.send(response.bytes)
  }
}

function limitHeaders(reply: FastifyReply, state: LimitState) {
  reply.header('x-ratelimit-limit', state.limit).header('x-ratelimit-remaining', state.remaining)
}

async function serveStream(request: FastifyRequest, reply: FastifyReply, streamed: Streamed, tracker: StreamTracker) {
  reply.hijack()
  const raw = reply.raw
  // Hijacked: the headers set so far (CORS, request ID) are written by hand.
  raw.writeHead(200, { ...(reply.getHeaders() as Record<string, string>), 'x-request-id': request.id, ...streamed.headers })
  raw.flushHeaders()
  const closed = new Promise<void>((resolve) => raw.on('close', () => resolve()))
  // On shutdown: a last close event (the client reconnects, to another instance), then the end.
  const end = () => {
    if (raw.writableEnded) return
    raw.write(`event: close\ndata: ${JSON.stringify({ reason: 'shutdown', reconnect: true })}\n\n`)
    raw.end()
  }
  tracker.opened(end)
  try {
    await streamed.run({
      write: sseWriter(raw),
      closed,
      end: () => {
        if (!raw.writableEnded) raw.end()
      },
    })
  } finally {
    tracker.closed(end)
  }
}

type ErrorBody = { error: { code: string; message: string; details?: Record<string, unknown> } }

function withRequestId<T extends ErrorBody>(body: T, requestId: string): T {
  return { ...body, error: { ...body.error, details: { ...body.error.details, requestId } } }
}

/** Adds details.requestId to a serialized JSON error body; other bytes pass unchanged. */
function requestIdInErrorBytes(bytes: Buffer, requestId: string): Buffer {
  try {
    const body = JSON.parse(bytes.toString('utf8')) as Partial<ErrorBody>
    if (!body.error || typeof body.error !== 'object' || typeof body.error.code !== 'string') return bytes
    return Buffer.from(JSON.stringify(withRequestId(body as ErrorBody, requestId)))
  } catch {
    return bytes
  }
}

function matchesPath(template: string, path: string): boolean {
  const pattern = new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+')}/?$`)
  return pattern.test(path)
}
