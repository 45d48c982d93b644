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
/** Rows per INSERT: a backfill page may hold thousands of legs; one statement each would cost a round trip each. */
const INSERT_CHUNK = 500

export async function insertTokenBurns(db: Queryable, rows: TokenBurnRow[]): Promise<void> {
  for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
    const chunk = rows.slice(start, start + INSERT_CHUNK)
    const values = chunk.map((_, i) => `($${i * 7 + 1}, $${i * 7 + 2}, $${i * 7 + 3}, $${i * 7 + 4}, $${i * 7 + 5}, $${i * 7 + 6}, $${i * 7 + 7})`).join(', ')
    await db.query(
      `INSERT INTO token_burns (tx_hash, log_index, block_number, block_time, sender, leg, value) VALUES ${values} ON CONFLICT DO NOTHING`,
      chunk.flatMap((b) => [b.txHash, b.logIndex, b.blockNumber.toString(), b.blockTime, b.sender, b.leg, b.value.toString()]),
    )
  }
}

/** Legs above `block` go with a reorg. */
export async function deleteTokenBurnsAfter(db: Queryable, block: bigint): Promise<void> {
  await db.query('DELETE FROM token_burns WHERE block_number > $1', [block.toString()])
}
