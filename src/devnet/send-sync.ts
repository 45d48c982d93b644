import { callProvider, type JsonRpcError, type JsonRpcHandler } from './edr-provider.ts'
import { JsonRpcFailure } from './rpc-server.ts'

/** EIP-7966's recommended node default, used when no (or an invalid) timeout is asked for. */
export const SYNC_DEFAULT_TIMEOUT_MS = 2000
/** The longest wait a caller may ask for; anything above is invalid and gets the default (EIP-7966). */
export const SYNC_MAX_TIMEOUT_MS = 30_000
/** How often the receipt is looked for when the transaction was not mined at once (automine off). */
const POLL_MS = 10

const fail = (error: JsonRpcError): never => {
  throw new JsonRpcFailure(error.code, error.message, error.data)
}

/**
 * The timeout parameter of EIP-7966: a QUANTITY of milliseconds (a number or a hex string), a
 * positive integer at most the node's maximum; anything else means the node's default.
 */
export function syncTimeoutOf(param: unknown): number {
  const value = typeof param === 'number' ? param : typeof param === 'string' && /^0x[0-9a-f]+$/i.test(param) ? Number(BigInt(param)) : NaN
  return Number.isSafeInteger(value) && value > 0 && value <= SYNC_MAX_TIMEOUT_MS ? value : SYNC_DEFAULT_TIMEOUT_MS
}

/**
 * `eth_sendRawTransactionSync` (EIP-7966) over the EDR provider, which does not serve it: the
 * transaction is sent as `eth_sendRawTransaction` would (its refusals answered as they are),
 * and its receipt returned. With automine, the receipt exists as soon as the send returns.
 *
 * The send and that first receipt read run one sync call at a time: EDR answers requests in
 * arrival order, so in a burst the first transaction's receipt read would otherwise queue
 * behind every other send of the burst and all of them would answer at its end — the very
 * delay this method exists to remove. Without automine the receipt is polled (outside that
 * turn) until the timeout: then error 4, or 5 when a lower nonce of the sender is missing
 * (the transaction waits in the pool and cannot be mined as things stand), data = the hash.
 */
export function createSendRawTransactionSync(provider: JsonRpcHandler) {
  let turn: Promise<unknown> = Promise.resolve()
  let closed = false

  const receiptOf = async (hash: string) => {
    const { result, error } = await callProvider(provider, 'eth_getTransactionReceipt', [hash])
    return error ? fail(error) : (result ?? undefined)
  }

  /** A pooled transaction whose nonce is above the sender's next one (pending included) waits for a missing nonce. */
  const missingNonce = async (hash: string) => {
    const tx = (await callProvider(provider, 'eth_getTransactionByHash', [hash])).result as { from?: string; nonce?: string } | null | undefined
    if (!tx?.from || !tx.nonce) return false
    const next = (await callProvider(provider, 'eth_getTransactionCount', [tx.from, 'pending'])).result
    return typeof next === 'string' && BigInt(tx.nonce) > BigInt(next)
  }

  async function sendRawTransactionSync(params: unknown[]): Promise<unknown> {
    const [rawTx, timeoutParam] = params
    const timeoutMs = syncTimeoutOf(timeoutParam)
    const mine = turn.then(async () => {
      const sent = await callProvider(provider, 'eth_sendRawTransaction', [rawTx])
      if (sent.error) fail(sent.error)
      const hash = sent.result as string
      return { hash, receipt: await receiptOf(hash) }
    })
    turn = mine.catch(() => undefined)
    const { hash, receipt } = await mine
    if (receipt) return receipt
    // The wait is for the receipt, from the moment the node took the transaction (EIP-7966's
    // reference implementation): not the time queued behind other sends.
    const deadline = Date.now() + timeoutMs
    if (await missingNonce(hash)) {
      throw new JsonRpcFailure(5, 'The transaction was added to the mempool but was not processed: a lower nonce of the sender is missing.', hash)
    }
    while (!closed && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS, Math.max(0, deadline - Date.now()))).unref())
      const found = await receiptOf(hash)
      if (found) return found
    }
    throw new JsonRpcFailure(4, `The transaction was added to the mempool but was not processed in ${timeoutMs} ms.`, hash)
  }

  return {
    method: sendRawTransactionSync,
    /** Ends the waits under way (they answer with the timeout error): the devnet is closing. */
    close() {
      closed = true
    },
  }
}
