import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify'
import { randomUUID } from 'node:crypto'
import type { Context } from '../context.ts'
import type { AnyOperation, RequestMeta, Streamed } from '../operations/define.ts'
import { AppError } from '../errors/app-error.ts'
import { parseOperationInput } from '../operations/runtime/parse-input.ts'
import { runOperationToBytes } from '../operations/runtime/run-operation.ts'
import { toAppError } from '../operations/runtime/errors.ts'
import { acceptsGzip, gzipEtag, gzipOf, isCompressible } from './compress.ts'
import { mountMcp } from '../mcp/server.ts'
import { catchUp, MIN_BLOCK_WAIT_MS } from '../cache/catch-up.ts'

/** Large enough for a 4 MB portrait in base64 plus the rest of the body. */
const BODY_LIMIT = 7 * 1024 * 1024
/** URLs whose parsed input a GET route keeps (distinct queries of one route). */
const PARSED_URLS = 1024

export type HttpServerOptions = {
  /** Extra mounts that are transports of the registry rather than operations (SSE, IPFS gateway). */
  mounts?: Array<(app: FastifyInstance) => void>
}

/**
 * Mounts every operation of the registry as a route, plus the MCP endpoint that exposes the
 * same registry as tools. Nothing here knows what an operation does.
 */
export function createHttpServer(ctx: Context, operations: AnyOperation[], options: HttpServerOptions = {}) {
  const app = Fastify({
    loggerInstance: ctx.log as unknown as FastifyBaseLogger,
    // Fastify's own two lines per request are replaced by the one line of the onResponse hook.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: BODY_LIMIT,
    genReqId: () => randomUUID(),
    trustProxy: ctx.config.TRUST_PROXY,
    keepAliveTimeout: 65_000,
    return503OnClosing: true,
    // A silent logger writes nothing, so a child per request (to bind its ID) is pure cost.
    ...(ctx.log.isLevelEnabled('fatal') ? {} : { childLoggerFactory: (logger: FastifyBaseLogger) => logger }),
  })

  // One line per request, after the answer: what a person watching the terminal follows (no
  // hook at all when that level is off: it would run on every request for nothing).
  if (ctx.log.isLevelEnabled('info')) {
    app.addHook('onResponse', async (request, reply) => {
      const ms = Math.round(reply.elapsedTime)
      request.log.info({ method: request.method, path: request.url, status: reply.statusCode, ms, requestId: request.id }, `${request.method} ${request.url} ${reply.statusCode} ${ms} ms`)
    })
  }

  // A callback hook, not an async one: no promise per request for three headers.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id)
    reply.header('access-control-allow-origin', '*')
    reply.header('access-control-expose-headers', 'X-PAYMENT-RESPONSE, X-Payment-Required, X-402-Version, ETag, X-Request-Id, X-Block-Number')
    done()
  })

  app.options('*', async (_request, reply) => {
    reply
      .header('access-control-allow-methods', 'GET, POST, OPTIONS')
      .header('access-control-allow-headers', 'Content-Type, X-PAYMENT, Last-Event-ID, If-None-Match, Mcp-Session-Id, MCP-Protocol-Version, X-Min-Block')
      .header('access-control-max-age', '86400')
      .code(204)
      .send()
  })

  app.setErrorHandler((error, request, reply) => {
    const appError = toAppError(error)
    if (appError.status >= 500) {
      request.log.error({ err: error, requestId: request.id }, 'request failed')
    }
    // Every 5xx carries the request ID the log line above names; an internal error says no more.
    const body =
      appError.status >= 500 && appError.code === 'INTERNAL_ERROR'
        ? { error: { code: appError.code, message: 'internal error', details: { requestId: request.id } } }
        : appError.status >= 500
          ? withRequestId(appError.toBody(), request.id)
          : appError.toBody()
    reply.code(appError.status).type('application/json').send(body)
  })

  app.setNotFoundHandler((request, reply) => {
    const known = operations.some((op) => matchesPath(op.path, request.url.split('?')[0]!))
    const error = known
      ? new AppError('METHOD_NOT_ALLOWED', `${request.method} is not allowed on ${request.url.split('?')[0]}.`)
      : new AppError('NOT_FOUND', `No route ${request.method} ${request.url.split('?')[0]}.`)
    reply.code(error.status).send(error.toBody())
  })

  for (const op of operations) mountOperation(app, ctx, op)
  mountMcp(app, ctx, operations)
  for (const mount of options.mounts ?? []) mount(app)
  return app
}

function mountOperation(app: FastifyInstance, ctx: Context, op: AnyOperation) {
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

  // A GET's input is its URL: the parsed input and its cache key, kept per URL, so a hot read
  // does not validate and serialize the same query again (bounded: emptied when full).
  const parsedByUrl = new Map<string, { input: unknown; key: string }>()

  app.route({
    method: op.method,
    url,
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      let parsed = op.method === 'GET' ? parsedByUrl.get(request.url) : undefined
      if (!parsed) {
        const raw = {
          ...(op.method === 'GET' ? (request.query as object) : (request.body as object) ?? {}),
          ...(request.params as object),
        }
        const input = parseOperationInput(op, raw)
        parsed = { input, key: op.cacheSeconds ? cacheKey(op, input) : '' }
        if (op.method === 'GET') {
          if (parsedByUrl.size >= PARSED_URLS) parsedByUrl.clear()
          parsedByUrl.set(request.url, parsed)
        }
      }
      const input = parsed.input
      const meta: RequestMeta = {
        headers: request.headers as Record<string, string | undefined>,
        transport: 'http',
        requestId: request.id,
      }
      if (op.streams) {
        const result = await op.handler(ctx, input, meta)
        if ((result as Streamed).kind !== 'stream') throw new Error(`${op.id} did not stream`)
        return serveStream(request, reply, result as Streamed)
      }
      // A client that needs an answer at least as new as a block (one a write of ours returned
      // in X-Block-Number) says so; this instance first catches up with the shared database.
      const asked = parseMinBlock(request)
      if (asked !== undefined && ctx.fresh.block() < asked) await catchUp(ctx.db, ctx.fresh, asked, MIN_BLOCK_WAIT_MS, () => ctx.indexer.poke())
      // A block not reached after the wait (not produced yet) is answered with what there is,
      // from the cache too; X-Block-Number says how new it is.
      const minBlock = asked !== undefined && ctx.fresh.block() >= asked ? asked : undefined
      const ttlMs = (op.cacheSeconds ? Math.min(op.cacheSeconds, ctx.config.CACHE_TTL_SECONDS) : 0) * 1000
      const run = () => runOperationToBytes(ctx, op, input, meta)
      const freshness = { stamp: ctx.fresh.stamp(op.dependsOn ?? []), block: ctx.fresh.block(), minBlock }
      const computed =
        ttlMs > 0
          ? await ctx.cache.get(parsed.key, ttlMs, run, (op.staleSeconds ?? 0) * 1000, freshness)
          : { ...(await run()), block: op.method === 'GET' ? freshness.block : ctx.fresh.block() }
      // A handler that answers a 5xx itself (e.g. a looksmaxx still running) gets the same
      // request ID in its error body and in the log as a thrown error would.
      const response = computed.status >= 500 ? { ...computed, bytes: requestIdInErrorBytes(computed.bytes, request.id) } : computed
      if (response.status >= 500) request.log.warn({ requestId: request.id, status: response.status, operation: op.id }, 'request answered with a server error')

      reply.code(response.status)
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
      if (compressible) reply.header('vary', 'accept-encoding')
      if (op.method === 'GET' && response.status === 200) {
        const identityEtag = response.headers?.etag ?? response.etag
        const etag = gzip ? gzipEtag(identityEtag) : identityEtag
        reply.header('etag', etag)
        if (request.headers['if-none-match'] === etag) return reply.code(304).send()
      }
      if (gzip) return reply.header('content-encoding', 'gzip').send(gzipOf(response))
      return reply.send(response.bytes)
    },
  })
}

async function serveStream(request: FastifyRequest, reply: FastifyReply, streamed: Streamed) {
  reply.hijack()
  const raw = reply.raw
  raw.writeHead(200, { 'access-control-allow-origin': '*', 'x-request-id': request.id, ...streamed.headers })
  raw.flushHeaders()
  const closed = new Promise<void>((resolve) => raw.on('close', () => resolve()))
  await streamed.run({
    write: (chunk) => {
      if (!raw.writableEnded) raw.write(chunk)
    },
    closed,
    end: () => {
      if (!raw.writableEnded) raw.end()
    },
  })
}

/**
 * One question, one key: the canonical input. Parsed inputs list their fields in the schema's
 * order, so equal questions serialize equally.
 */
function cacheKey(op: AnyOperation, input: unknown): string {
  return `${op.id}:${JSON.stringify(op.canonicalInput ? op.canonicalInput(input) : input)}`
}

/** `?minBlock=` or `X-Min-Block`: a decimal block number; anything else is refused. */
function parseMinBlock(request: FastifyRequest): bigint | undefined {
  const raw = (request.query as Record<string, unknown> | undefined)?.minBlock ?? request.headers['x-min-block']
  if (raw === undefined) return undefined
  if (typeof raw !== 'string' || !/^\d{1,20}$/.test(raw)) {
    throw new AppError('INVALID_INPUT', `Invalid minBlock: expected a block number, got ${JSON.stringify(raw)}.`, { details: { field: 'minBlock' } })
  }
  return BigInt(raw)
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
