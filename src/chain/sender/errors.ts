import { AppError } from '../../errors/app-error.ts'
import { rpcFailed } from '../upstream-error.ts'

/**
 * A stored transaction that can never be mined: the key's nonce on chain is past its nonce and
 * none of its signed versions has a receipt (another transaction of the key used the nonce).
 * Final for its idempotency key, so not retryable with that key; it never executed, so the
 * caller may do the same work again under a new key.
 */
export class TxDroppedError extends AppError {
  override name = 'TxDroppedError'
  /** Stable tag for callers (also in `details.reason`). */
  readonly reason = 'TX_DROPPED' as const
  readonly idempotencyKey: string
  readonly txHash: `0x${string}`
  readonly nonce: number

  constructor(record: { idempotencyKey: string; txHash: `0x${string}`; nonce: number }) {
    super('UPSTREAM_FAILED', `The transaction ${record.txHash} was dropped: another transaction of the key used its nonce ${record.nonce}.`, {
      retryable: false,
      details: { reason: 'TX_DROPPED', txHash: record.txHash, nonce: record.nonce },
    })
    this.idempotencyKey = record.idempotencyKey
    this.txHash = record.txHash
    this.nonce = record.nonce
  }
}

export function isTxDropped(error: unknown): error is TxDroppedError {
  return error instanceof TxDroppedError
}

/**
 * The request's call reverts when estimated: a permanent failure of this request, not an RPC
 * hiccup, so not retryable (the caller's own code, e.g. RELAY_FAILED, says what failed).
 */
export const gasEstimateReverted = (cause: unknown) => new AppError('INTERNAL_ERROR', 'internal error', { cause, retryable: false })

/** No receipt within the request's own deadline: the transaction stays watched; a retry with the same key answers. */
export const receiptTimedOut = (txHash: string, timeoutMs: number) =>
  rpcFailed('waiting for a receipt', new Error(`no receipt for ${txHash} after ${timeoutMs} ms`))
