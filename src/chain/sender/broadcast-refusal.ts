/**
 * What a node's answers to a send mean for a stored transaction (pure: no IO), for both
 * `eth_sendRawTransaction` and `eth_sendRawTransactionSync` (EIP-7966).
 */

export type BroadcastRefusal = 'nonce-gap' | 'already-sent' | 'refused'

/**
 * What a node's refusal of `eth_sendRawTransaction` means for a stored transaction:
 * `nonce-gap`: a lower nonce of the key is missing (send the stored ones below first);
 * `already-sent`: the same bytes are pooled or mined (the receipt decides); `refused`: anything else.
 */
export function classifyBroadcastError(message: string): BroadcastRefusal {
  if (/nonce too high|nonce gap|future/i.test(message)) return 'nonce-gap'
  if (/already known|nonce too low|known transaction|already imported/i.test(message)) return 'already-sent'
  return 'refused'
}

/** The node's JSON-RPC error inside what viem throws: viem wraps it, keeping its `code` and `data`. */
export function rpcErrorOf(error: unknown): { code?: number; message: string; data?: unknown } {
  const found: { code?: number; message: string; data?: unknown } = { message: String((error as Error)?.message ?? error) }
  // The innermost error with a code is the node's own answer (viem's outer ones copy or replace it).
  for (let e = error as { code?: unknown; data?: unknown; cause?: unknown } | undefined, depth = 0; e && typeof e === 'object' && depth < 10; e = e.cause as typeof e, depth++) {
    if (typeof e.code === 'number') {
      found.code = e.code
      if (e.data !== undefined) found.data = e.data
    }
  }
  return found
}

export type SyncSendOutcome = 'unsupported' | 'pending' | BroadcastRefusal

/**
 * What an error of `eth_sendRawTransactionSync` means for a stored transaction:
 * `unsupported`: the node does not serve the method, so nothing was sent (send it the usual way);
 * `pending`: sent, no receipt within the wait (EIP-7966 code 4): it may still be mined;
 * otherwise as a refusal of `eth_sendRawTransaction`. Code 5 ("not ready": pooled, but a lower
 * nonce is missing or funds are short) reads as a nonce gap, so the stored ones below are sent.
 */
export function classifySyncError(error: { code?: number; message: string }): SyncSendOutcome {
  if (error.code === -32601 || error.code === -32004) return 'unsupported'
  if (/method\b.*\b(not found|not supported|unsupported|does not exist|not available)|(unknown|unsupported) method/i.test(error.message)) return 'unsupported'
  if (error.code === 4) return 'pending'
  if (error.code === 5) return 'nonce-gap'
  return classifyBroadcastError(error.message)
}
