import type { Queryable } from '../store/db.ts'

/**
 * The payload of a `burn` event, one shape whoever reports it: the pipeline when it records a
 * mint, or the indexer when it sees one on chain. Fields unknown for a mint the service did not
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
 * What the indexer should say of a mint it sees: the portrait's event once the pipeline has
 * recorded it; nothing while the mint is the service's own but not yet recorded (the pipeline
 * reports it as it records, with the image); the chain's view when the service never sent it.
 */
export async function classifyMint(db: Queryable, mint: { txHash: string; tokenId: bigint }) {
  const { rows } = await db.query<{ burn_tx_hash: string; burner: string; token_id: string; image_cid: string; source: string; minted_at: Date }>(
    'SELECT burn_tx_hash, burner, token_id, image_cid, source, minted_at FROM portraits WHERE token_id = $1 AND lower(mint_tx_hash) = lower($2)',
    [mint.tokenId.toString(), mint.txHash],
  )
  const portrait = rows[0]
  if (portrait) {
    return {
      kind: 'recorded' as const,
      portrait: { burnTxHash: portrait.burn_tx_hash, burner: portrait.burner, tokenId: portrait.token_id, imageCid: portrait.image_cid, source: portrait.source, mintedAt: new Date(portrait.minted_at) },
    }
  }
  const { rows: ours } = await db.query(
    `SELECT 1 FROM chain_txs WHERE lower(tx_hash) = lower($1)
     UNION ALL SELECT 1 FROM chain_tx_attempts WHERE lower(tx_hash) = lower($1) LIMIT 1`,
    [mint.txHash],
  )
  return ours.length ? { kind: 'pending' as const } : { kind: 'foreign' as const }
}
