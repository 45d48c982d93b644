import type { Queryable } from './db.ts'

/** Whether a transaction seen on chain is one this service made (its sender's `chain_txs` and `chain_tx_attempts`, `portraits`). */

/** Of these transactions, those the service signed (lower-case hashes): one query for a page of the indexer, not one per burn. */
export async function serviceTxsAmong(db: Queryable, txHashes: string[]): Promise<Set<string>> {
  if (txHashes.length === 0) return new Set()
  const hashes = txHashes.map((h) => h.toLowerCase())
  const { rows } = await db.query<{ h: string }>(
    `SELECT lower(tx_hash) AS h FROM chain_txs WHERE lower(tx_hash) = ANY($1::text[]) UNION SELECT lower(tx_hash) AS h FROM chain_tx_attempts WHERE lower(tx_hash) = ANY($1::text[])`,
    [hashes],
  )
  return new Set(rows.map((r) => r.h))
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
