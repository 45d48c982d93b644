import type { PublicClient, TransactionReceipt } from 'viem'
import type { Logger } from 'pino'
import type { Db } from '../../store/db.ts'
import { listOpenTxs, markBroadcast, type StoredTx } from '../../store/chain-txs.ts'
import { rpcFailed } from '../upstream-error.ts'
import { coalesce } from '../../util/coalesce.ts'
import { classifyBroadcastError, classifySyncError, rpcErrorOf } from './broadcast-refusal.ts'
import type { SyncSender } from './sync-send.ts'

export { classifyBroadcastError, type BroadcastRefusal } from './broadcast-refusal.ts'

/**
 * Hands stored transactions to the node and records that they were sent. `broadcast` is the
 * plain send (re-sends, replacements, gap filling: the watcher follows them); `sendForReceipt`
 * is a request's first send of its transaction, which also brings its receipt back when the
 * node serves `eth_sendRawTransactionSync`.
 */
export function createBroadcaster(deps: { db: Db; client: PublicClient; sync?: SyncSender; address: `0x${string}`; log: Logger }) {
  const { db, client, sync, log } = deps
  const recordSent = coalesce(async (keys: string[]) => {
    await markBroadcast(db, [...new Set(keys)])
    return keys.map(() => undefined)
  })

  async function broadcast(tx: StoredTx, fillGaps = true): Promise<void> {
    try {
      await client.request({ method: 'eth_sendRawTransaction', params: [tx.rawTx] })
    } catch (cause) {
      const refusal = classifyBroadcastError(String((cause as Error)?.message ?? cause))
      if (refusal === 'nonce-gap' && fillGaps) {
        // A lower nonce was stored by a process that died before sending it: send it (and any
        // other stored one below) first, then this one.
        await sendStoredBelow(tx.nonce)
        return broadcast(tx, false)
      }
      if (refusal !== 'already-sent') throw rpcFailed('broadcasting a transaction', cause)
    }
    await recordSent(tx.idempotencyKey)
  }

  async function sendStoredBelow(nonce: number): Promise<void> {
    for (const stored of await listOpenTxs(db, deps.address, nonce)) {
      await broadcast(stored, false).catch((error) => log.warn({ err: error, nonce: stored.nonce }, 'could not send a stored transaction yet'))
    }
  }

  /**
   * Sends `tx` and waits up to `waitMs` for its receipt in the same call; undefined when the
   * receipt did not come with it (no sync method, a timeout, a refusal read as sent): the
   * watcher then follows the transaction as after a plain send. Throws as `broadcast` does.
   * A receipt returned is not recorded here: the caller records it before answering.
   */
  async function sendForReceipt(tx: StoredTx, waitMs: number): Promise<TransactionReceipt | undefined> {
    if (!sync?.supported()) return void (await broadcast(tx))
    const result = await sync.send(tx.rawTx, waitMs)
    if ('receipt' in result) {
      // A node answering for other bytes would be a bug of the node; the watcher decides then.
      if (result.receipt.transactionHash.toLowerCase() === tx.txHash.toLowerCase()) return result.receipt
      log.warn({ nonce: tx.nonce, txHash: tx.txHash, receiptHash: result.receipt.transactionHash }, 'eth_sendRawTransactionSync answered with the receipt of another transaction')
      return void (await recordSent(tx.idempotencyKey))
    }
    const error = rpcErrorOf(result.error)
    switch (classifySyncError(error)) {
      case 'unsupported':
        // Nothing was sent: this node (and this client) only gets plain sends from now on.
        sync.unsupported()
        log.info({ code: error.code, message: error.message }, 'the node does not serve eth_sendRawTransactionSync; sending with eth_sendRawTransaction and watching receipts')
        return void (await broadcast(tx))
      case 'pending':
      case 'already-sent':
        return void (await recordSent(tx.idempotencyKey))
      case 'nonce-gap':
        // As for a plain send: the stored ones below first, then this one again (plainly:
        // the watcher reads its receipt).
        await sendStoredBelow(tx.nonce)
        return void (await broadcast(tx, false))
      case 'refused':
        throw rpcFailed('broadcasting a transaction', result.error)
    }
  }

  return { broadcast, sendForReceipt }
}
