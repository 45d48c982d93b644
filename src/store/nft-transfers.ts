import { zeroAddress } from 'viem'
import type { Queryable } from './db.ts'

/** Portrait-NFT transfers as indexed (`nft_transfers`) and who owns each token now (`nft_owners`, derived from them). */

export type NftTransferRow = {
  txHash: string
  logIndex: number
  blockNumber: bigint
  blockTime: Date
  from: string
  to: string
  tokenId: bigint
}

/** Stores indexed transfers; one already stored (same tx and log index) is kept. */
export async function insertNftTransfers(db: Queryable, rows: NftTransferRow[]): Promise<void> {
  for (const t of rows) {
    await db.query(
      `INSERT INTO nft_transfers (tx_hash, log_index, block_number, block_time, from_address, to_address, token_id) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING`,
      [t.txHash, t.logIndex, t.blockNumber.toString(), t.blockTime, t.from, t.to, t.tokenId.toString()],
    )
  }
}

/** Deletes the transfers above `block` (a reorg) and returns the token IDs they touched, whose owners must be recomputed. */
export async function deleteNftTransfersAfter(db: Queryable, block: bigint): Promise<string[]> {
  const { rows } = await db.query<{ token_id: string }>('SELECT DISTINCT token_id FROM nft_transfers WHERE block_number > $1', [block.toString()])
  await db.query('DELETE FROM nft_transfers WHERE block_number > $1', [block.toString()])
  return rows.map((r) => String(r.token_id))
}

/**
 * Sets the owner of `tokenId` from its stored transfers: the receiver of the last one, with the
 * block and time of its mint. A burned token, or one with no stored mint, has no owner row.
 */
export async function recomputeNftOwner(db: Queryable, tokenId: string): Promise<void> {
  const { rows } = await db.query<{ to_address: string }>(
    'SELECT to_address, block_number, block_time FROM nft_transfers WHERE token_id = $1 ORDER BY block_number DESC, log_index DESC LIMIT 1',
    [tokenId],
  )
  const { rows: mint } = await db.query<{ block_number: string; block_time: Date }>(
    'SELECT block_number, block_time FROM nft_transfers WHERE token_id = $1 AND from_address = $2 ORDER BY block_number LIMIT 1',
    [tokenId, zeroAddress],
  )
  if (!rows[0] || !mint[0] || rows[0].to_address === zeroAddress) {
    await db.query('DELETE FROM nft_owners WHERE token_id = $1', [tokenId])
    return
  }
  await db.query(
    `INSERT INTO nft_owners (token_id, owner, minted_block, minted_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (token_id) DO UPDATE SET owner = EXCLUDED.owner`,
    [tokenId, rows[0].to_address, mint[0].block_number, mint[0].block_time],
  )
}

/** Token IDs `owner` holds (any address case), ascending. */
export async function listTokenIdsOwnedBy(db: Queryable, owner: string): Promise<string[]> {
  const { rows } = await db.query<{ token_id: string }>('SELECT token_id FROM nft_owners WHERE lower(owner) = lower($1) ORDER BY token_id', [owner])
  return rows.map((r) => String(r.token_id))
}
