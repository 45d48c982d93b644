import { createHash } from 'node:crypto'

export type CachedResponse = { status: number; bytes: Buffer; etag: string; headers?: Record<string, string> }

/**
 * Serialized responses kept for a short time, so that a hot read costs one lookup and no
 * chain call. Concurrent misses for one key share a single computation (no stampede). Past its
 * lifetime an answer may still be served for `staleMs` while one refresh runs in the
 * background: a slow refresh (the chadboard's multicall) must not stall every reader of the key.
 */
export type ResponseCache = {
  get(key: string, ttlMs: number, compute: () => Promise<CachedResponse>, staleMs?: number): Promise<CachedResponse>
  clear(): void
}

export function createResponseCache(maxEntries = 10_000, clock: () => number = Date.now): ResponseCache {
  const entries = new Map<string, { value: CachedResponse; expires: number; staleUntil: number }>()
  const inFlight = new Map<string, Promise<CachedResponse>>()
  const refresh = (key: string, ttlMs: number, staleMs: number, compute: () => Promise<CachedResponse>) => {
    const run = compute()
      .then((value) => {
        // Only successes are cached: a failed quote must be retried by the next caller.
        if (value.status < 400 && ttlMs > 0) {
          if (entries.size >= maxEntries && !entries.has(key)) entries.delete(entries.keys().next().value!)
          const now = clock()
          entries.set(key, { value, expires: now + ttlMs, staleUntil: now + ttlMs + staleMs })
        }
        return value
      })
      .finally(() => inFlight.delete(key))
    inFlight.set(key, run)
    return run
  }
  return {
    async get(key, ttlMs, compute, staleMs = 0) {
      const now = clock()
      const hit = entries.get(key)
      if (hit && hit.expires > now) return hit.value
      const pending = inFlight.get(key)
      if (hit && hit.staleUntil > now) {
        // A failed background refresh leaves the stale answer until staleUntil; after that
        // the next caller computes, and sees the failure.
        if (!pending) refresh(key, ttlMs, staleMs, compute).catch(() => {})
        return hit.value
      }
      return pending ?? refresh(key, ttlMs, staleMs, compute)
    },
    clear: () => entries.clear(),
  }
}

export function etagOf(bytes: Buffer): string {
  return `"${createHash('sha1').update(bytes).digest('base64url').slice(0, 27)}"`
}
