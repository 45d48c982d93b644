import type { FastifyRequest } from 'fastify'
import { AppError } from '../errors/app-error.ts'

/**
 * Every POST body is JSON: any other body gets 415 before it is read (without this, Fastify's
 * text/plain parser would hand the handler a string and the client a puzzling 400). A POST
 * without a body is left to the operation's input schema.
 */
export async function requireJsonBody(request: FastifyRequest): Promise<void> {
  const hasBody = Number(request.headers['content-length'] ?? 0) > 0 || request.headers['transfer-encoding'] !== undefined
  if (!hasBody) return
  const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase()
  if (type === 'application/json' || /^application\/[\w.-]+\+json$/.test(type)) return
  throw new AppError('UNSUPPORTED_MEDIA_TYPE', `Send the request body as application/json; got ${type ? JSON.stringify(type) : 'no Content-Type'}.`, {
    details: { contentType: type || null, expected: 'application/json' },
  })
}
