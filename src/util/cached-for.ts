/**
 * Shares one reading among the callers of the next `ms` milliseconds (a failed reading is
 * forgotten at once). Fees move slowly: one reading serves the transactions of the next second.
 */
export function cachedFor<T>(ms: number, read: () => Promise<T>, now: () => number = Date.now): () => Promise<T> {
  let cached: { value: Promise<T>; at: number } | undefined
  return () => {
    if (!cached || now() - cached.at > ms) {
      const value = read()
      const entry = { value, at: now() }
      cached = entry
      value.catch(() => {
        if (cached === entry) cached = undefined
      })
    }
    return cached.value
  }
}

/**
 * Shares the reading under way among its callers; the next call after it ends reads again.
 * Concurrent sends of a key need one reading of its pending nonce count, not one each.
 */
export function sharedInFlight<T>(read: () => Promise<T>): () => Promise<T> {
  let current: Promise<T> | undefined
  return () =>
    (current ??= read().finally(() => {
      current = undefined
    }))
}
