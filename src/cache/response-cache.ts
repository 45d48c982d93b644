import { createHash } from 'node:crypto'

export type CachedResponse = { status: number; bytes: Buffer; etag: string; headers?: Record<string, string> }

/** What a cached answer was computed from, and how new the caller needs it. */
export type Freshness = {
  /** Versions of the data the answer depends on: an answer of another stamp is never served. */
  stamp?: string
  /** The block the answer is exact as of (the newest block applied when it was computed). */
  block?: bigint
  /** The caller needs an answer at least as new as this block. */
  minBlock?: bigint
}

/**
 * Serialized responses, so that a hot read costs one lookup and no chain call. An answer is
 * served only while the data it was computed from is unchanged (same `stamp`: a change bumps
 * it) and, when the caller asks, as new as `minBlock`. Concurrent misses of one key and stamp
 * share a single computation (no stampede). Past its lifetime (the bound for changes nobody
 * announces) an answer of the current stamp may still be served for `staleMs` while one
 * refresh runs in the background; an answer of an older stamp never is.
 */
export type ResponseCache = {
  get(key: string, ttlMs: number, compute: () => Promise<CachedResponse>, staleMs?: number, freshness?: Freshness): Promise<CachedResponse & { block?: bigint }>
  /** The answer `get` would return at once (same stamp, new enough, within its lifetime), or undefined: no promise. */
  peek(key: string, freshness?: Freshness): (CachedResponse & { block?: bigint }) | undefined
  clear(): void
}

/** `value` carries its block, so a hit returns it as is (no allocation per read). */
type Entry = { value: CachedResponse & { block?: bigint }; expires: number; staleUntil: number; stamp: string; block?: bigint }

export function createResponseCache(maxEntries = 10_000, clock: () => number = Date.now): ResponseCache {
  const entries = new Map<string, Entry>()
  const inFlight = new Map<string, Promise<CachedResponse & { block?: bigint }>>()
  const refresh = (key: string, ttlMs: number, staleMs: number, compute: () => Promise<CachedResponse>, stamp: string, block?: bigint) => {
    const flightKey = `${key}\n${stamp}`
    const run = compute()
      .then((computed) => {
        const value = { ...computed, block }
        // Only successes are cached: a failed quote must be retried by the next caller. An
        // answer computed before a change that happened meanwhile is stored under its own
        // stamp, so it is not served to anyone who asks after the change.
        if (value.status < 400 && ttlMs > 0) {
          if (entries.size >= maxEntries && !entries.has(key)) entries.delete(entries.keys().next().value!)
          const now = clock()
          const current = entries.get(key)
          if (!current || current.stamp !== stamp || (current.block ?? -1n) <= (block ?? -1n)) {
            entries.set(key, { value, expires: now + ttlMs, staleUntil: now + ttlMs + staleMs, stamp, block })
          }
        }
        return value
      })
      .finally(() => inFlight.delete(flightKey))
    inFlight.set(flightKey, run)
    return run
  }
  const usableOf = (key: string, freshness: Freshness) => {
    const hit = entries.get(key)
    return hit && hit.stamp === (freshness.stamp ?? '') && (freshness.minBlock === undefined || (hit.block ?? -1n) >= freshness.minBlock) ? hit : undefined
  }
  return {
    peek(key, freshness = {}) {
      const usable = usableOf(key, freshness)
      return usable && usable.expires > clock() ? usable.value : undefined
    },
    async get(key, ttlMs, compute, staleMs = 0, freshness = {}) {
      const stamp = freshness.stamp ?? ''
      const now = clock()
      const usable = usableOf(key, freshness)
      if (usable && usable.expires > now) return usable.value
      const pending = inFlight.get(`${key}\n${stamp}`)
      if (usable && usable.staleUntil > now) {
        // A failed background refresh leaves the stale answer until staleUntil; after that
        // the next caller computes, and sees the failure.
        if (!pending) refresh(key, ttlMs, staleMs, compute, stamp, freshness.block).catch(() => {})
        return usable.value
      }
      // A computation already running for this stamp started after the change the caller
      // may have made: joining it is safe unless the caller needs a newer block than it has.
      if (pending && freshness.minBlock === undefined) return pending
      return refresh(key, ttlMs, staleMs, compute, stamp, freshness.block)
    },
    clear: () => entries.clear(),
  }
}

export function etagOf(bytes: Buffer): string {
  return `"${createHash('sha1').update(bytes).digest('base64url').slice(0, 27)}"`
}
