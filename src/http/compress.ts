import { gzip as gzipAsync } from 'node:zlib'
import { promisify } from 'node:util'
import type { CachedResponse } from '../cache/response-cache.ts'

/** Below this, gzip saves too little to be worth a header and the CPU. */
const MIN_BYTES = 1024
const COMPRESSIBLE = /^(application\/json|text\/)/

const gzip = promisify(gzipAsync)

/**
 * Compressed bytes of a response, made once per response object: a cached response (the
 * gallery, the chadboard) is compressed when first asked for, not on every request. Until it
 * is ready the entry holds the promise, which every concurrent request of that version shares.
 */
const gzipped = new WeakMap<CachedResponse, Buffer | Promise<Buffer>>()

/** Whether the Accept-Encoding header allows gzip (not listed, or `q=0`, means no). */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false
  return header.split(',').some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(';').map((s) => s.trim())
    if (coding !== 'gzip' && coding !== '*') return false
    const q = params.find((p) => p.startsWith('q='))
    return q === undefined || Number(q.slice(2)) > 0
  })
}

export function isCompressible(response: CachedResponse, contentType: string): boolean {
  return response.bytes.length >= MIN_BYTES && COMPRESSIBLE.test(contentType)
}

/**
 * The gzip bytes of a response: the Buffer once made, else the one compression in flight. It
 * runs in libuv's thread pool, not on the event loop: a renewed chadboard (250 KB, several ms
 * of deflate) does not hold up the requests behind it, ten times a second under burns.
 */
export function gzipOf(response: CachedResponse): Buffer | Promise<Buffer> {
  const held = gzipped.get(response)
  if (held) return held
  const made = gzip(response.bytes, { level: 6 }).then(
    (bytes) => {
      gzipped.set(response, bytes)
      return bytes
    },
    (error) => {
      // Not kept: the next request compresses again.
      gzipped.delete(response)
      throw error
    },
  )
  gzipped.set(response, made)
  return made
}

/** Each encoding is its own representation, with its own validator. */
export const gzipEtag = (etag: string) => etag.replace(/"$/, '-gzip"')

/** A Vary header with one more field name, after those set before (CORS sets Origin). */
export function appendVary(vary: unknown, field: string): string {
  return typeof vary === 'string' && vary ? `${vary}, ${field}` : field
}
