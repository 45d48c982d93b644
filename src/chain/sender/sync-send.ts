import { createPublicClient, http, type TransactionReceipt } from 'viem'
import { sendRawTransactionSync } from 'viem/actions'
import type { Chain } from '../clients.ts'

/**
 * Longest wait asked of `eth_sendRawTransactionSync`: EIP-7966's recommended node default. A
 * transaction not mined by then is left to the receipt watcher (re-sends, replacement), which
 * does not follow it while the call is under way.
 */
export const SYNC_SEND_MAX_WAIT_MS = 2000

export type SyncSendResult = { receipt: TransactionReceipt } | { error: unknown }

export type SyncSender = {
  /** False once the node answered that it does not serve the method. */
  supported(): boolean
  unsupported(): void
  /** Sends and waits up to `waitMs` (at most `SYNC_SEND_MAX_WAIT_MS`) for the receipt; never throws: the error is returned. */
  send(rawTx: `0x${string}`, waitMs: number): Promise<SyncSendResult>
}

/**
 * `eth_sendRawTransactionSync` (EIP-7966) on the chain's RPC: the send and its receipt in one
 * round trip. It has its own client without batching: a batch is answered once all its calls
 * are, so the sends of a burst travelling together would all answer at the end of the burst.
 */
export function createSyncSender(chain: Chain): SyncSender {
  const url = chain.viemChain.rpcUrls.default.http[0]!
  // No retry (viem sends this method once anyway): a lost answer leaves the transaction
  // stored, and the watcher follows it.
  const client = createPublicClient({ chain: chain.viemChain, transport: http(url, { timeout: SYNC_SEND_MAX_WAIT_MS + 8000, retryCount: 0 }) })
  let supported = true
  return {
    supported: () => supported,
    unsupported() {
      supported = false
    },
    async send(rawTx, waitMs) {
      const timeout = Math.max(1, Math.min(SYNC_SEND_MAX_WAIT_MS, Math.round(waitMs)))
      try {
        return { receipt: await sendRawTransactionSync(client, { serializedTransaction: rawTx, timeout }) }
      } catch (error) {
        return { error }
      }
    },
  }
}
