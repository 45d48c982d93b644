import type { Queryable } from './db.ts'

export type DefiActivityKind =
  | 'burn' | 'stake' | 'unstake' | 'claim' | 'send'
  | 'proposal_created' | 'vote' | 'proposal_queued' | 'proposal_executed' | 'proposal_vetoed'

export type DefiActivityRow = {
  blockNumber: bigint
  logIndex: number
  txHash: string
  kind: DefiActivityKind
  actor: string | null
  amount: bigint | null
  extra: Record<string, string | number | boolean>
}

export type StoredActivity = Omit<DefiActivityRow, 'blockNumber' | 'amount'> & { blockNumber: string; amount: string | null; time: Date }

export async function insertDefiActivity(db: Queryable, rows: DefiActivityRow[], time: (block: bigint) => Date): Promise<void> {
  for (const r of rows) {
    await db.query(
      `INSERT INTO defi_activity (block_number, log_index, tx_hash, kind, actor, amount, extra, block_time) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING`,
      [r.blockNumber.toString(), r.logIndex, r.txHash, r.kind, r.actor, r.amount?.toString() ?? null, JSON.stringify(r.extra), time(r.blockNumber)],
    )
  }
}

/** Rows above `block` go with a reorg. */
export async function deleteDefiActivityAfter(db: Queryable, block: bigint): Promise<void> {
  await db.query('DELETE FROM defi_activity WHERE block_number > $1', [block.toString()])
}

/**
 * The newest `limit` rows within the last `blocks` blocks of the index (block > indexed head −
 * blocks), newest first, with the indexed head.
 */
export async function listDefiActivity(db: Queryable, blocks: number, limit: number): Promise<{ head: string | null; rows: StoredActivity[] }> {
  const { rows } = await db.query<{ head: string | null; block_number: string | null; log_index: number; tx_hash: string; kind: DefiActivityKind; actor: string | null; amount: string | null; extra: Record<string, string | number | boolean>; block_time: Date }>(
    `WITH h AS (SELECT block_number AS head FROM indexer_cursor WHERE name = 'main')
     SELECT h.head, a.block_number, a.log_index, a.tx_hash, a.kind, a.actor, a.amount, a.extra, a.block_time
     FROM h LEFT JOIN LATERAL (
       SELECT * FROM defi_activity WHERE block_number > h.head - $1 ORDER BY block_number DESC, log_index DESC LIMIT $2
     ) a ON true`,
    [blocks, limit],
  )
  const head = rows[0]?.head != null ? String(rows[0].head) : null
  return {
    head,
    rows: rows
      .filter((r) => r.block_number !== null)
      .map((r) => ({
        blockNumber: String(r.block_number), logIndex: r.log_index, txHash: r.tx_hash, kind: r.kind, actor: r.actor,
        amount: r.amount === null ? null : String(r.amount), extra: r.extra, time: new Date(r.block_time),
      })),
  }
}
