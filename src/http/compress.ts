import { gzipSync } from 'node:zlib'
import type { CachedResponse } from '../cache/response-cache.ts'

/** Below this, gzip saves too little to be worth a header and the CPU. */
const MIN_BYTES = 1024
const COMPRESSIBLE = /^(application\/json|text\/)/

/**
 * Compressed bytes of a response, made once per response object: a cached response (the
 * gallery, the chadboard) is compressed when first asked for, not on every request.
 */
const gzipped = new WeakMap<CachedResponse, Buffer>()

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

export function gzipOf(response: CachedResponse): Buffer {
  let bytes = gzipped.get(response)
  if (!bytes) {
    bytes = gzipSync(response.bytes, { level: 6 })
    gzipped.set(response, bytes)
  }
  return bytes
}

/** Each encoding is its own representation, with its own validator. */
export const gzipEtag = (etag: string) => etag.replace(/"$/, '-gzip"')
