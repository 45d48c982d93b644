import type { FastifyRequest } from 'fastify'
import type { Config } from '../config/load.ts'
import { AppError } from '../errors/app-error.ts'

const LOCAL_NAMES = ['localhost', '127.0.0.1', '[::1]', '::1']
const WILDCARD_BINDS = ['0.0.0.0', '::', '[::]', '']

/** The host name of a Host header or an origin, without its port, lower-cased. */
export function hostnameOf(host: string): string {
  const value = host.trim().toLowerCase()
  if (value.startsWith('[')) return value.slice(0, value.indexOf(']') + 1)
  // A bare IPv6 address (no brackets, several colons) has no port to strip.
  return (value.match(/:/g) ?? []).length > 1 ? value : value.split(':')[0]!
}

/**
 * DNS-rebinding protection (the MCP spec's rule for local servers, applied to every write): a
 * page on a domain that resolves to 127.0.0.1 makes the browser send that domain as Host, so a
 * request whose Host is not a name this service answers for is refused before it is read. The
 * Origin, when a browser sends one, must be an allowed host too or an origin CORS allows; with
 * CORS_ORIGINS=* (a public API without ambient credentials) any real site may call, and only the
 * Host rule stops a rebinding page.
 */
export function createHostCheck(config: Config): (request: FastifyRequest) => void {
  const listed = config.ALLOWED_HOSTS.split(',').map((h) => h.trim()).filter(Boolean)
  if (listed.includes('*')) return () => {}
  const allowed = new Set([
    ...LOCAL_NAMES,
    ...listed.map(hostnameOf),
    hostnameOf(new URL(config.publicBaseUrl).host),
    ...(WILDCARD_BINDS.includes(config.HOST) ? [] : [hostnameOf(config.HOST)]),
  ])
  const origins = config.CORS_ORIGINS.split(',').map((o) => o.trim()).filter(Boolean)
  const anyOrigin = origins.includes('*')
  return (request) => {
    const host = request.headers.host
    if (!host || !allowed.has(hostnameOf(host))) {
      throw new AppError('FORBIDDEN_HOST', `This service does not answer for host ${JSON.stringify(host ?? '')}: call it by a name it serves (localhost, or one of ALLOWED_HOSTS).`, {
        details: { host: host ?? null },
      })
    }
    const origin = request.headers.origin
    if (origin === undefined || anyOrigin || origins.includes(origin)) return
    let originHost: string
    try {
      originHost = hostnameOf(new URL(origin).host)
    } catch {
      originHost = ''
    }
    if (!allowed.has(originHost)) {
      throw new AppError('FORBIDDEN_HOST', `Requests from origin ${JSON.stringify(origin)} are not accepted: CORS_ORIGINS lists the sites that may call.`, { details: { origin } })
    }
  }
}
