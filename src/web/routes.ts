import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Logger } from 'pino'
import { acceptsGzip, appendVary } from '../http/compress.ts'
import { etagOf, lazyGzip, loadWebAssets, type WebAssets } from './build-assets.ts'
import { CONTENT_SECURITY_POLICY, renderPage, type PageName } from './pages.ts'

/** Hashed names never change content: browsers and CDNs keep them for a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable'

const PAGES: Record<string, PageName> = { '/': 'home', '/early': 'early' }

type Body = { bytes: Buffer; gzip(): Buffer; etag: string; contentType: string }

/**
 * The web page for people: `/`, `/early` and their bundled assets under `/assets/`. These are
 * pages, not operations of the registry: no agent calls them, they read the same public API an
 * agent does. Mounted as an extra of the HTTP server; a failed bundle leaves the API running
 * (the pages then answer the usual 404) and says why in the log.
 */
export function mountWeb(options: { log: Logger; load?: () => Promise<WebAssets> }) {
  return (app: FastifyInstance) => {
    app.register(async (scope) => {
      let assets: WebAssets
      try {
        const started = Date.now()
        assets = await (options.load ?? loadWebAssets)()
        options.log.info({ key: assets.key, built: assets.built, ms: Date.now() - started }, assets.built ? 'web page bundled' : 'web page read from the cache')
      } catch (error) {
        options.log.error({ err: error }, 'could not bundle the web page; / and /early are not served')
        return
      }
      const pages = new Map(
        Object.entries(PAGES).map(([url, name]) => {
          const bytes = Buffer.from(renderPage(name, assets), 'utf8')
          return [url, { bytes, gzip: lazyGzip(bytes), etag: etagOf(bytes), contentType: 'text/html; charset=utf-8' }]
        }),
      )
      for (const [url, body] of pages) {
        scope.get(url, async (request, reply) => {
          // A page changes only with a new bundle: revalidate on every visit, 304 while the same.
          reply.header('cache-control', 'no-cache')
          reply.header('content-security-policy', CONTENT_SECURITY_POLICY)
          reply.header('referrer-policy', 'strict-origin-when-cross-origin')
          return send(request, reply, body)
        })
      }
      scope.get('/assets/:file', async (request, reply) => {
        const asset = assets.files.get((request.params as { file: string }).file)
        if (!asset) return reply.callNotFound()
        reply.header('cache-control', IMMUTABLE)
        return send(request, reply, asset)
      })
    })
  }
}

function send(request: FastifyRequest, reply: FastifyReply, body: Body) {
  const gzip = acceptsGzip(request.headers['accept-encoding'])
  const etag = gzip ? body.etag.replace(/"$/, '-gzip"') : body.etag
  reply.header('content-type', body.contentType)
  reply.header('x-content-type-options', 'nosniff')
  reply.header('vary', appendVary(reply.getHeader('vary'), 'accept-encoding'))
  reply.header('etag', etag)
  if (request.headers['if-none-match'] === etag) return reply.code(304).send()
  if (gzip) return reply.header('content-encoding', 'gzip').send(body.gzip())
  return reply.send(body.bytes)
}
