import { keccak256, type LocalAccount, type PublicClient } from 'viem'
import type { Db } from '../../store/db.ts'
import { findChainTxs, findMaxStoredNonce, insertSignedTxs, lockSenderNonces, type NewSignedTx, type StoredTx } from '../../store/chain-txs.ts'
import { rpcFailed } from '../upstream-error.ts'
import { allocateNonces } from './allocate-nonces.ts'
import { coalesce } from '../../util/coalesce.ts'
import { sharedInFlight } from '../../util/cached-for.ts'
import { gasEstimateReverted } from './errors.ts'

export type SendRequest = {
  key: string
  to: `0x${string}`
  data: `0x${string}`
  value?: bigint
  /** A gas estimate the caller made of this very call from the sender's address (spares making another). */
  gas?: bigint
}

export type Fees = { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }

/** Gas limit with a fifth of headroom over the estimate (state may change before it is mined). */
export const gasLimitOf = (estimate: bigint) => (estimate * 12n) / 10n

/**
 * Signs and stores the first version of the transaction for `request.key`, or finds the one
 * stored before: the signed bytes and their nonce are committed before anyone broadcasts them.
 * `created` says whether this call stored it.
 *
 * Concurrent calls share one database transaction (one nonce lock, one insert per table):
 * they get consecutive nonces in call order.
 */
export function createSignAndStore(deps: { db: Db; client: PublicClient; account: LocalAccount; chainId: number; fees: () => Promise<Fees> }) {
  const { db, client, account, chainId } = deps
  type Item = { request: SendRequest; gasLimit: bigint; fees: Fees; chainPending: number }
  const pendingCount = sharedInFlight(() => client.getTransactionCount({ address: account.address, blockTag: 'pending' }))

  const storeTogether = coalesce(async (items: Item[]): Promise<Array<{ tx: StoredTx; created: boolean }>> => {
    const chainPending = Math.max(...items.map((i) => i.chainPending))
    return db.transaction(async (tx) => {
      // One nonce sequence per key, shared by every process using the same database.
      await lockSenderNonces(tx, account.address)
      const existing = new Map((await findChainTxs(tx, items.map((i) => i.request.key))).map((t) => [t.idempotencyKey, t]))
      const fresh = [...new Map(items.filter((i) => !existing.has(i.request.key)).map((i) => [i.request.key, i])).values()]
      const nonces = allocateNonces(chainPending, fresh.length ? await findMaxStoredNonce(tx, account.address) : undefined, fresh.length)
      const signed: NewSignedTx[] = []
      for (const [i, { request, gasLimit, fees }] of fresh.entries()) {
        const value = request.value ?? 0n
        const rawTx = await account.signTransaction({
          chainId, type: 'eip1559', to: request.to, data: request.data, value, nonce: nonces[i]!, gas: gasLimit,
          maxFeePerGas: fees.maxFeePerGas, maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
        })
        signed.push({
          idempotencyKey: request.key, sender: account.address, nonce: nonces[i]!, to: request.to, data: request.data, value,
          rawTx, txHash: keccak256(rawTx), gasLimit, maxFeePerGas: fees.maxFeePerGas, maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
        })
      }
      const inserted = new Map((await insertSignedTxs(tx, signed)).map((t) => [t.idempotencyKey, t]))
      const claimed = new Set<string>()
      return items.map(({ request }) => {
        const found = existing.get(request.key)
        if (found) return { tx: found, created: false }
        // The same key twice in one batch: one transaction, created once.
        const created = !claimed.has(request.key)
        claimed.add(request.key)
        return { tx: inserted.get(request.key)!, created }
      })
    })
  })

  return async function signAndStore(request: SendRequest): Promise<{ tx: StoredTx; created: boolean }> {
    const estimate =
      request.gas !== undefined
        ? Promise.resolve(request.gas)
        : client.estimateGas({ account: account.address, to: request.to, data: request.data, value: request.value ?? 0n }).catch((cause) => {
            if (/revert/i.test(String((cause as Error)?.message))) throw gasEstimateReverted(cause)
            throw rpcFailed('estimating gas', cause)
          })
    // Read together with the estimate (one round trip): the fees of the last second, and the
    // chain's pending count, which only matters when the key was used outside the service.
    const chainState = Promise.all([deps.fees(), pendingCount()]).catch((cause) => {
      throw rpcFailed('reading fees and nonce', cause)
    })
    const [gas, [fees, chainPending]] = await Promise.all([estimate, chainState])
    return storeTogether({ request, gasLimit: gasLimitOf(gas), fees, chainPending })
  }
}
