import type { Queryable } from './db.ts'

export type PortraitRecord = {
  tokenId: bigint
  burner: string
  burnTxHash: string
  devTxHash: string
  burnAmountWei: bigint
  imageCid: string
  metadataCid: string
  mintTxHash: string
  source: string
  mintedAt: Date
}

export async function countPortraits(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ n: string | number }>('SELECT count(*) AS n FROM portraits')
  return Number(rows[0]?.n ?? 0)
}

/** Idempotent: the indexer and the pipeline may both record the same mint. */
export async function insertPortrait(db: Queryable, p: Omit<PortraitRecord, 'mintedAt'>): Promise<void> {
  await db.query(
    `INSERT INTO portraits (token_id, burner, burn_tx_hash, dev_tx_hash, burn_amount_wei, image_cid, metadata_cid, mint_tx_hash, source)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT DO NOTHING`,
    [p.tokenId.toString(), p.burner, p.burnTxHash, p.devTxHash, p.burnAmountWei.toString(), p.imageCid, p.metadataCid, p.mintTxHash, p.source],
  )
}

export async function getPortrait(db: Queryable, tokenId: bigint): Promise<PortraitRecord | undefined> {
  const { rows } = await db.query<Record<string, any>>('SELECT * FROM portraits WHERE token_id = $1', [tokenId.toString()])
  const row = rows[0]
  if (!row) return undefined
  return {
    tokenId: BigInt(row.token_id),
    burner: row.burner,
    burnTxHash: row.burn_tx_hash,
    devTxHash: row.dev_tx_hash,
    burnAmountWei: BigInt(row.burn_amount_wei),
    imageCid: row.image_cid,
    metadataCid: row.metadata_cid,
    mintTxHash: row.mint_tx_hash,
    source: row.source,
    mintedAt: new Date(row.minted_at),
  }
}

export type GalleryRow = { tokenId: string; burner: string; burnTxHash: string; imageCid: string; burnAmountWei: string; mintedAt: Date }

const toGalleryRow = (r: Record<string, any>): GalleryRow => ({
  tokenId: String(r.token_id),
  burner: r.burner,
  burnTxHash: r.burn_tx_hash,
  imageCid: r.image_cid,
  burnAmountWei: String(r.burn_amount_wei),
  mintedAt: new Date(r.minted_at),
})

/** Newest first; the tie on the same second is broken by token ID. */
export async function listPortraits(db: Queryable, limit: number, offset: number): Promise<GalleryRow[]> {
  const { rows } = await db.query<Record<string, any>>(
    'SELECT token_id, burner, burn_tx_hash, image_cid, burn_amount_wei, minted_at FROM portraits ORDER BY minted_at DESC, token_id DESC LIMIT $1 OFFSET $2',
    [limit, offset],
  )
  return rows.map(toGalleryRow)
}

export type BurnerTotals = {
  burner: string
  totalBurns: number
  totalBurnedWei: string
  images: Array<{ imageCid: string; mintedAt: Date; burnTxHash: string }>
}

/**
 * Per-burner totals for the leaderboard, most burns first, with each burner's latest images.
 * One query: totals and the recent images come from the same scan.
 */
export async function listBurnerTotals(db: Queryable, limit: number, imagesPerBurner: number): Promise<BurnerTotals[]> {
  const { rows } = await db.query<Record<string, any>>(
    `WITH totals AS (
       SELECT burner, count(*) AS burns, sum(burn_amount_wei) AS burned, max(minted_at) AS latest
       FROM portraits GROUP BY burner
       ORDER BY burns DESC, burned DESC, latest DESC LIMIT $1
     ), ranked AS (
       SELECT p.burner, p.image_cid, p.minted_at, p.burn_tx_hash,
              row_number() OVER (PARTITION BY p.burner ORDER BY p.minted_at DESC, p.token_id DESC) AS n
       FROM portraits p JOIN totals t ON t.burner = p.burner
     )
     SELECT t.burner, t.burns, t.burned, t.latest,
            coalesce(json_agg(json_build_object('imageCid', r.image_cid, 'mintedAt', r.minted_at, 'burnTxHash', r.burn_tx_hash)
              ORDER BY r.minted_at DESC) FILTER (WHERE r.n <= $2), '[]') AS images
     FROM totals t LEFT JOIN ranked r ON r.burner = t.burner
     GROUP BY t.burner, t.burns, t.burned, t.latest
     ORDER BY t.burns DESC, t.burned DESC, t.latest DESC`,
    [limit, imagesPerBurner],
  )
  return rows.map((r) => ({
    burner: r.burner,
    totalBurns: Number(r.burns),
    totalBurnedWei: String(r.burned),
    images: (typeof r.images === 'string' ? JSON.parse(r.images) : r.images).map((i: any) => ({ imageCid: i.imageCid, mintedAt: new Date(i.mintedAt), burnTxHash: i.burnTxHash })),
  }))
}

export async function listPortraitsOf(db: Queryable, burner: string): Promise<GalleryRow[]> {
  const { rows } = await db.query<Record<string, any>>(
    'SELECT token_id, burner, burn_tx_hash, image_cid, burn_amount_wei, minted_at FROM portraits WHERE lower(burner) = lower($1) ORDER BY minted_at DESC, token_id DESC LIMIT 200',
    [burner],
  )
  return rows.map(toGalleryRow)
}
