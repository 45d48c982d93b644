import type { Queryable } from './db.ts'

/** Service tokens sent to the dead address or the fund wallet, as indexed from Transfer logs (`token_burns`). */

export type TokenBurnRow = {
  txHash: string
  logIndex: number
  blockNumber: bigint
  blockTime: Date
  sender: string
  leg: string
  value: bigint
}

/** Stores indexed burn legs; a leg already stored (same tx and log index) is kept. */
export async function insertTokenBurns(db: Queryable, rows: TokenBurnRow[]): Promise<void> {
  for (const b of rows) {
    await db.query(
      `INSERT INTO token_burns (tx_hash, log_index, block_number, block_time, sender, leg, value) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING`,
      [b.txHash, b.logIndex, b.blockNumber.toString(), b.blockTime, b.sender, b.leg, b.value.toString()],
    )
  }
}

/** Legs above `block` go with a reorg. */
export async function deleteTokenBurnsAfter(db: Queryable, block: bigint): Promise<void> {
  await db.query('DELETE FROM token_burns WHERE block_number > $1', [block.toString()])
}
