import type { PublicClient } from 'viem'
import type { Logger } from 'pino'
import type { Db } from '../../store/db.ts'
import { listOpenTxs, markBroadcast, type StoredTx } from '../../store/chain-txs.ts'
import { rpcFailed } from '../upstream-error.ts'
import { coalesce } from './coalesce.ts'

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

/** Hands stored transactions to the node and records that they were sent. */
export function createBroadcaster(deps: { db: Db; client: PublicClient; address: `0x${string}`; log: Logger }) {
  const { db, client, log } = deps
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

  return broadcast
}
