import type { Queryable } from './db.ts'

/** Submissions per status; every status but `minted` is owed work. */
export async function countSubmissionsByStatus(db: Queryable): Promise<Array<{ status: string; count: number }>> {
  const { rows } = await db.query<{ status: string; count: string | number }>('SELECT status, count(*) AS count FROM submissions GROUP BY status')
  return rows.map((row) => ({ status: row.status, count: Number(row.count) }))
}

/** The last block the indexer applied, or undefined before its first pass. */
export async function indexedBlock(db: Queryable): Promise<bigint | undefined> {
  const { rows } = await db.query<{ block_number: string | number }>("SELECT block_number FROM indexer_cursor WHERE name = 'main'")
  return rows[0] ? BigInt(rows[0].block_number) : undefined
}

/** Per hot key: the highest nonce it used and how many of its transactions wait for a receipt. */
export async function senderStats(db: Queryable): Promise<Array<{ sender: string; highestNonce: number; pending: number }>> {
  const { rows } = await db.query<{ sender: string; highest: string | number; pending: string | number }>(
    `SELECT sender, max(nonce) AS highest, count(*) FILTER (WHERE status IN ('signed', 'broadcast')) AS pending
       FROM chain_txs GROUP BY sender`,
  )
  return rows.map((row) => ({ sender: row.sender, highestNonce: Number(row.highest), pending: Number(row.pending) }))
}

/** One round trip: the database answers. */
export async function pingDb(db: Queryable): Promise<void> {
  await db.query('SELECT 1')
}
