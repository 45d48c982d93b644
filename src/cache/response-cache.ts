import { createHash } from 'node:crypto'

export type CachedResponse = { status: number; bytes: Buffer; etag: string; headers?: Record<string, string> }

/**
 * Serialized responses kept for a short time, so that a hot read costs one lookup and no
 * chain call. Concurrent misses for one key share a single computation (no stampede).
 */
export type ResponseCache = {
  get(key: string, ttlMs: number, compute: () => Promise<CachedResponse>): Promise<CachedResponse>
  clear(): void
}

export function createResponseCache(maxEntries = 10_000): ResponseCache {
  const entries = new Map<string, { value: CachedResponse; expires: number }>()
  const inFlight = new Map<string, Promise<CachedResponse>>()
  return {
    async get(key, ttlMs, compute) {
      const hit = entries.get(key)
      if (hit && hit.expires > Date.now()) return hit.value
      const pending = inFlight.get(key)
      if (pending) return pending
      const run = compute()
        .then((value) => {
          // Only successes are cached: a failed quote must be retried by the next caller.
          if (value.status < 400 && ttlMs > 0) {
            if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!)
            entries.set(key, { value, expires: Date.now() + ttlMs })
          }
          return value
        })
        .finally(() => inFlight.delete(key))
      inFlight.set(key, run)
      return run
    },
    clear: () => entries.clear(),
  }
}

export function etagOf(bytes: Buffer): string {
  return `"${createHash('sha1').update(bytes).digest('base64url').slice(0, 27)}"`
}
