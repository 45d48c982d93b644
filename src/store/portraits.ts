import type { Queryable } from './db.ts'

export type PortraitRecord = {
  tokenId: bigint
  burner: string
  burnTxHash: string
  devTxHash: string
  burnAmountWei: bigint
  /** The part of the burn sent to the dead address (the rest: fund wallet, referral agent). */
  deadAmountWei: bigint
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

/**
 * Idempotent: the indexer and the pipeline may both record the same mint. A new portrait
 * updates the read models in the same transaction (pass a transaction): its burner's
 * chadboard row and the totals of the stats.
 */
/** Columns of a gallery row as the read models take it (minted_at also in microseconds: its sort key). */
export const PORTRAIT_COLUMNS = `token_id, burner, burn_tx_hash, image_cid, burn_amount_wei, minted_at, (extract(epoch FROM minted_at) * 1000000)::bigint::text AS at_us`
/** Columns of a chadboard row as the read models take it. */
export const BOARD_COLUMNS = `burner, portraits, burned_wei::text AS burned_wei, (extract(epoch FROM latest_at) * 1000000)::bigint::text AS latest_us, images`

/**
 * What a recording wrote, as the read models would read it back: the portrait, its burner's
 * chadboard row, and the number of portraits counting it (the totals row, updated in the same
 * statement, orders recordings, so the count is exact as of this one).
 */
export type RecordedPortrait = { portrait: Record<string, any>; board: Record<string, any>; total: number }

export async function insertPortrait(db: Queryable, p: Omit<PortraitRecord, 'mintedAt'>): Promise<RecordedPortrait | undefined> {
  // The portrait and the totals in one statement (the totals only when the portrait is new).
  // The totals row also orders concurrent recordings: a second one waits here until the first
  // commits, so the burner's row below, read by the next statement (a new snapshot), includes it.
  const { rows } = await db.query(
    `WITH recorded AS (
       INSERT INTO portraits (token_id, burner, burn_tx_hash, dev_tx_hash, burn_amount_wei, dead_amount_wei, image_cid, metadata_cid, mint_tx_hash, source)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT DO NOTHING RETURNING ${PORTRAIT_COLUMNS}
     ), totals AS (
       INSERT INTO portrait_totals (id, portraits, beyond_dead_wei) SELECT true, 1, $11::numeric FROM recorded
       ON CONFLICT (id) DO UPDATE SET portraits = portrait_totals.portraits + 1, beyond_dead_wei = portrait_totals.beyond_dead_wei + EXCLUDED.beyond_dead_wei
       RETURNING portraits
     )
     SELECT recorded.*, totals.portraits::text AS total FROM recorded, totals`,
    [
      p.tokenId.toString(), p.burner, p.burnTxHash, p.devTxHash, p.burnAmountWei.toString(), p.deadAmountWei.toString(), p.imageCid, p.metadataCid, p.mintTxHash, p.source,
      (p.burnAmountWei - p.deadAmountWei).toString(),
    ],
  )
  const recorded = rows[0]
  if (!recorded) return undefined
  // The burner's row, rewritten from its own portraits (an indexed read of at most 12 rows and
  // one aggregate), so it is exact however often it is rewritten.
  const board = await db.query(
    `INSERT INTO burner_boards (burner, portraits, burned_wei, latest_at, images)
     SELECT $1, count(*), sum(burn_amount_wei), max(minted_at),
       coalesce((SELECT jsonb_agg(jsonb_build_object('imageCid', r.image_cid, 'timestamp', to_char(r.minted_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'burnTxHash', r.burn_tx_hash) ORDER BY r.minted_at DESC, r.token_id DESC)
                 FROM (SELECT image_cid, minted_at, burn_tx_hash, token_id FROM portraits WHERE burner = $1 ORDER BY minted_at DESC, token_id DESC LIMIT $2) r), '[]'::jsonb)
     FROM portraits WHERE burner = $1
     ON CONFLICT (burner) DO UPDATE SET portraits = EXCLUDED.portraits, burned_wei = EXCLUDED.burned_wei, latest_at = EXCLUDED.latest_at, images = EXCLUDED.images
     RETURNING ${BOARD_COLUMNS}`,
    [p.burner, BOARD_IMAGES],
  )
  const { total, ...portrait } = recorded
  return { portrait, board: board.rows[0]!, total: Number(total) }
}

/** Images kept per burner on the chadboard. */
export const BOARD_IMAGES = 12
/** Burners shown on the chadboard. */
export const BOARD_SIZE = 100

/** Portraits minted, and the tokens their burns sent beyond the dead address (fund, referral). */
export async function getPortraitTotals(db: Queryable): Promise<{ portraits: number; beyondDeadWei: bigint }> {
  const { rows } = await db.query<{ portraits: string; beyond_dead_wei: string }>('SELECT portraits, beyond_dead_wei FROM portrait_totals')
  return { portraits: Number(rows[0]?.portraits ?? 0), beyondDeadWei: BigInt(rows[0]?.beyond_dead_wei ?? 0) }
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
    deadAmountWei: BigInt(row.dead_amount_wei ?? BigInt(row.burn_amount_wei) / 2n),
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
  /** Newest first; `timestamp` is ISO 8601 UTC, as the API writes it. */
  images: Array<{ imageCid: string; timestamp: string; burnTxHash: string }>
}

/**
 * The leaderboard: the top burners by portraits (then tokens burned, then the latest), each
 * with its latest images. One indexed read of the rows the recording transactions keep.
 */
export async function listBurnerTotals(db: Queryable, limit: number): Promise<BurnerTotals[]> {
  const { rows } = await db.query<Record<string, any>>(
    'SELECT burner, portraits, burned_wei, images FROM burner_boards ORDER BY portraits DESC, burned_wei DESC, latest_at DESC, lower(burner) LIMIT $1',
    [limit],
  )
  return rows.map((r) => ({
    burner: r.burner,
    totalBurns: Number(r.portraits),
    totalBurnedWei: String(r.burned_wei),
    images: typeof r.images === 'string' ? JSON.parse(r.images) : r.images,
  }))
}

export async function listPortraitsOf(db: Queryable, burner: string, limit = 200): Promise<GalleryRow[]> {
  const { rows } = await db.query<Record<string, any>>(
    'SELECT token_id, burner, burn_tx_hash, image_cid, burn_amount_wei, minted_at FROM portraits WHERE lower(burner) = lower($1) ORDER BY minted_at DESC, token_id DESC LIMIT $2',
    [burner, limit],
  )
  return rows.map(toGalleryRow)
}

/**
 * Rebuilds the read models (chadboard rows, stats totals) from the portraits table: after a
 * bulk load of portraits that did not go through insertPortrait (benchmarks, a restore).
 */
export async function rebuildReadModels(db: Queryable): Promise<void> {
  await db.query('DELETE FROM burner_boards')
  await db.query('DELETE FROM portrait_totals')
  await db.query(
    `INSERT INTO portrait_totals (id, portraits, beyond_dead_wei)
       SELECT true, count(*), coalesce(sum(burn_amount_wei - coalesce(dead_amount_wei, div(burn_amount_wei, 2))), 0) FROM portraits`,
  )
  await db.query(
    `INSERT INTO burner_boards (burner, portraits, burned_wei, latest_at, images)
     SELECT burner, count(*), sum(burn_amount_wei), max(minted_at), '[]'::jsonb FROM portraits GROUP BY burner`,
  )
  await db.query(
    `UPDATE burner_boards b SET images = coalesce((
       SELECT jsonb_agg(jsonb_build_object('imageCid', p.image_cid, 'timestamp', to_char(p.minted_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'burnTxHash', p.burn_tx_hash) ORDER BY p.minted_at DESC, p.token_id DESC)
       FROM (SELECT * FROM portraits WHERE burner = b.burner ORDER BY minted_at DESC, token_id DESC LIMIT $1) p), '[]'::jsonb)`,
    [BOARD_IMAGES],
  )
}
