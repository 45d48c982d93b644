import type { Queryable } from './db.ts'

/** Whether a transaction seen on chain is one this service made (its sender's `chain_txs` and `chain_tx_attempts`, `portraits`). */

/** Whether the service signed this transaction (a gasless relay, a mint, a settlement). */
export async function isServiceTx(db: Queryable, txHash: string): Promise<boolean> {
  const { rows } = await db.query(
    `SELECT 1 FROM chain_txs WHERE lower(tx_hash) = lower($1) UNION ALL SELECT 1 FROM chain_tx_attempts WHERE lower(tx_hash) = lower($1) LIMIT 1`,
    [txHash],
  )
  return rows.length > 0
}

/**
 * Whether the service made this mint: recorded as a portrait, or a transaction its sender
 * stored (before broadcasting it, so a mint the pipeline has not recorded yet counts too).
 * The pipeline announces its own mints, stored with the mint in one transaction.
 */
export async function isServiceMint(db: Queryable, mintTxHash: string): Promise<boolean> {
  const { rows } = await db.query(
    `SELECT 1 FROM portraits WHERE lower(mint_tx_hash) = lower($1)
     UNION ALL SELECT 1 FROM chain_txs WHERE lower(tx_hash) = lower($1)
     UNION ALL SELECT 1 FROM chain_tx_attempts WHERE lower(tx_hash) = lower($1) LIMIT 1`,
    [mintTxHash],
  )
  return rows.length > 0
}
