import type { Queryable } from './db.ts'

/** The indexer's progress (`indexer_cursor`) and the recent block hashes it checks for reorgs (`indexed_blocks`). */

export type BlockRef = { number: bigint; hash: string }

/** The last block the named cursor indexed, if any. */
export async function getCursor(db: Queryable, name: string): Promise<BlockRef | undefined> {
  const { rows } = await db.query<{ block_number: string; block_hash: string }>('SELECT block_number, block_hash FROM indexer_cursor WHERE name = $1', [name])
  return rows[0] && { number: BigInt(rows[0].block_number), hash: rows[0].block_hash }
}

export async function saveCursor(db: Queryable, name: string, block: BlockRef): Promise<void> {
  await db.query(
    `INSERT INTO indexer_cursor (name, block_number, block_hash) VALUES ($1, $2, $3)
     ON CONFLICT (name) DO UPDATE SET block_number = EXCLUDED.block_number, block_hash = EXCLUDED.block_hash`,
    [name, block.number.toString(), block.hash],
  )
}

/**
 * The newest block the shared database reflects: the indexer's cursor (whichever instance
 * indexes) or the block of this service's newest mined transaction. Undefined when empty.
 */
export async function newestKnownBlock(db: Queryable): Promise<bigint | undefined> {
  const { rows } = await db.query<{ block: string | null }>(
    `SELECT greatest((SELECT max(block_number) FROM indexer_cursor), (SELECT max(block_number) FROM chain_txs WHERE status = 'mined')) AS block`,
  )
  return rows[0]?.block != null ? BigInt(rows[0].block) : undefined
}

/** Stored block hashes, newest first. */
export async function listIndexedBlocks(db: Queryable): Promise<BlockRef[]> {
  const { rows } = await db.query<{ number: string; hash: string }>('SELECT number, hash FROM indexed_blocks ORDER BY number DESC')
  return rows.map((r) => ({ number: BigInt(r.number), hash: r.hash }))
}

export async function saveIndexedBlock(db: Queryable, block: BlockRef): Promise<void> {
  await db.query('INSERT INTO indexed_blocks (number, hash) VALUES ($1, $2) ON CONFLICT (number) DO UPDATE SET hash = EXCLUDED.hash', [block.number.toString(), block.hash])
}

/** Forgets the hashes of blocks below `number` (too deep for a reorg). */
export async function pruneIndexedBlocksBelow(db: Queryable, number: bigint): Promise<void> {
  await db.query('DELETE FROM indexed_blocks WHERE number < $1', [number.toString()])
}

/** Blocks above `number` go with a reorg. */
export async function deleteIndexedBlocksAfter(db: Queryable, number: bigint): Promise<void> {
  await db.query('DELETE FROM indexed_blocks WHERE number > $1', [number.toString()])
}
