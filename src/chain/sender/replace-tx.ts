import { keccak256, type LocalAccount } from 'viem'
import type { Db } from '../../store/db.ts'
import { storeReplacement, type StoredTx } from '../../store/chain-txs.ts'
import type { Fees } from './sign-and-store.ts'

/**
 * Fees of a replacement: each a quarter above the signed version's (nodes require a raise to
 * accept the same nonce again), and at least the current fees; the max fee covers the tip.
 */
export function replacementFees(signed: Fees, current: Fees): Fees {
  const bump = (v: bigint) => (v * 125n) / 100n + 1n
  const max = (a: bigint, b: bigint) => (a > b ? a : b)
  const maxPriorityFeePerGas = max(bump(signed.maxPriorityFeePerGas), current.maxPriorityFeePerGas)
  return { maxPriorityFeePerGas, maxFeePerGas: max(max(bump(signed.maxFeePerGas), current.maxFeePerGas), maxPriorityFeePerGas) }
}

/**
 * Signs the same nonce again with higher fees and stores it (not broadcast yet). Only the
 * version `tx` describes is replaced: when another look or process replaced it (or it became
 * final) meanwhile, the stored transaction is returned with `replaced: false`.
 */
export function createReplacer(deps: { db: Db; account: LocalAccount; chainId: number; fees: () => Promise<Fees> }) {
  return async function replaceTx(tx: StoredTx): Promise<{ tx: StoredTx; replaced: boolean }> {
    const current = await deps.fees().catch(() => ({ maxFeePerGas: 0n, maxPriorityFeePerGas: 0n }))
    const fees = replacementFees({ maxFeePerGas: tx.maxFeePerGas ?? 0n, maxPriorityFeePerGas: tx.maxPriorityFeePerGas ?? 0n }, current)
    const rawTx = await deps.account.signTransaction({
      chainId: deps.chainId, type: 'eip1559', to: tx.to, data: tx.data, value: tx.value, nonce: tx.nonce, gas: tx.gasLimit!, ...fees,
    })
    const outcome = await deps.db.transaction((q) =>
      storeReplacement(q, { idempotencyKey: tx.idempotencyKey, previousHash: tx.txHash, rawTx, txHash: keccak256(rawTx), ...fees }),
    )
    return { tx: outcome.stored, replaced: outcome.replaced }
  }
}
