/**
 * The nonces of `count` new transactions of one key: consecutive, after both the highest
 * stored nonce (stored transactions may not be on chain yet) and the chain's pending count
 * (the key may have been used outside the service). Callers hold the key's nonce lock
 * (`lockSenderNonces`) from reading `storedMax` until the new transactions are stored, so
 * processes sharing a database never skip or reuse one.
 */
export function allocateNonces(chainPending: number, storedMax: number | undefined, count: number): number[] {
  const first = Math.max(chainPending, storedMax === undefined ? 0 : storedMax + 1)
  return Array.from({ length: count }, (_, i) => first + i)
}
