import type { Queryable } from '../store/db.ts'

/**
 * The payload of a `burn` event, one shape whoever reports it: the pipeline when it records a
 * mint, or the indexer when it sees a mint the service did not make. Fields unknown for a mint the service did not
 * make (an image it never pinned) are null rather than missing.
 */
export type BurnEventData = {
  txHash: string
  burner: string
  tokenId: string
  cid: string | null
  ipfsUrl: string | null
  source: string
  timestamp: string
}

/** Events of one portrait are deduplicated on this key, so it reaches the stream once. */
export const burnEventKey = (tokenId: bigint | string) => `burn:${tokenId}`

export function burnEventOfPortrait(
  portrait: { burnTxHash: string; burner: string; tokenId: bigint | string; imageCid: string; source: string; mintedAt: Date },
  gatewayUrl: (cid: string) => string,
): BurnEventData {
  return {
    txHash: portrait.burnTxHash,
    burner: portrait.burner,
    tokenId: portrait.tokenId.toString(),
    cid: portrait.imageCid,
    ipfsUrl: gatewayUrl(portrait.imageCid),
    source: portrait.source,
    timestamp: portrait.mintedAt.toISOString(),
  }
}

/** A mint made outside this service (another deployment, a script): only the chain is known. */
export function burnEventOfForeignMint(mint: { txHash: string; to: string; tokenId: bigint; at: Date }): BurnEventData {
  return { txHash: mint.txHash, burner: mint.to, tokenId: mint.tokenId.toString(), cid: null, ipfsUrl: null, source: 'chain', timestamp: mint.at.toISOString() }
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
