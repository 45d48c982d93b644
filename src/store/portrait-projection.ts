import type { Queryable } from './db.ts'
import type { Freshness } from '../cache/freshness.ts'
import { BOARD_COLUMNS, PORTRAIT_COLUMNS, type BurnerTotals, type GalleryRow, type RecordedPortrait } from './portraits.ts'

/** A gallery row and where it sorts: minted_at in microseconds (the database's precision). */
export type HeldPortrait = GalleryRow & { atUs: bigint }
/** A chadboard row and what it ranks by. */
export type HeldBoardRow = BurnerTotals & { burnedWei: bigint; latestAtUs: bigint }

/**
 * The gallery and the chadboard as read models held in memory: every portrait, newest first,
 * and the top `boardSize` burners, in the order the database gives them. They are not a
 * response cache: they hold rows, never answers, and they are renewed by the same events that
 * write the tables (a write of this process, or an invalidation heard from another instance
 * through the bus: topic `portraits`), by reading from the store only what changed. A read
 * after a change first brings them up to date (read-your-writes), and one whose data are older
 * than `ttlMs` looks again, the bound for writes nobody announces.
 *
 * Held rows are immutable objects, replaced when they change: a caller may memoize what it
 * derives from one (a serialized fragment) by identity.
 */
export type PortraitProjection = {
  /** A page of the gallery, newest first (minted_at, then token ID, descending). */
  gallery(limit: number, offset: number): Promise<HeldPortrait[]>
  /** The top burners: portraits, then tokens burned, then the latest portrait, descending. */
  board(): Promise<HeldBoardRow[]>
  /** Forgets everything held: the next read loads it again (after a bulk load or a restore). */
  reload(): void
  /**
   * A recording of this process committed: what it wrote, told to the models before the change
   * is announced (`fresh.changed`), so that the renewal the announcement starts can take these
   * rows instead of reading them back. Taken only when every change announced since the last
   * renewal is one of these and the counts agree; anything else is read from the store.
   */
  recorded(recording: RecordedPortrait): void
}

/**
 * How far back an incremental read looks past the newest portrait held: a recording
 * transaction that took its minted_at (its start time) before that one but committed after
 * it is still found. One that took longer is caught by the count check (a full reload).
 */
export const OVERLAP_SECONDS = 10

/** Most new portraits one incremental read takes; more than that is a full reload. */
const CATCH_UP_LIMIT = 1000

type Version = { portraits: number; block: bigint }

const PORTRAITS = ['portraits'] as const

export function createPortraitProjection(db: Queryable, fresh: Freshness, options: { boardSize: number; ttlMs: number; overlapSeconds?: number; clock?: () => number }): PortraitProjection {
  const clock = options.clock ?? Date.now
  const overlap = options.overlapSeconds ?? OVERLAP_SECONDS
  let portraits: HeldPortrait[] = []
  let byToken = new Map<string, HeldPortrait>()
  let board: HeldBoardRow[] = []
  let loaded = false
  let synced: Version = { portraits: -1, block: -1n }
  let syncedAt = 0
  let running: { version: Version; done: Promise<void> } | undefined
  /** Recordings of this process told since the last renewal started (bounded: more is read). */
  let told: RecordedPortrait[] = []

  /** What readers are promised: every change made visible so far. */
  const visible = (): Version => ({ portraits: Number(fresh.stamp(PORTRAITS)), block: fresh.block() })
  /** What a read of the store starting now includes: every change announced so far, visible or not. */
  const announced = (): Version => {
    const { version, block } = fresh.ahead('portraits')
    return { portraits: version, block }
  }
  const covers = (have: Version, want: Version) => have.portraits >= want.portraits && have.block >= want.block

  async function loadAll(): Promise<void> {
    // The board after the portraits: its snapshot is at least as new, so no portrait held is
    // missing from it (one it has and the list lacks is found by the next catch-up).
    const rows = await db.query<Record<string, any>>(`SELECT ${PORTRAIT_COLUMNS} FROM portraits`)
    // Ordered by the table's columns, named through its alias: a bare `burned_wei` would be the
    // select list's text of it, and '675…' sorts above '1125…' (the top burners came out wrong).
    const top = await db.query<Record<string, any>>(`SELECT ${BOARD_COLUMNS} FROM burner_boards b ORDER BY b.portraits DESC, b.burned_wei DESC, b.latest_at DESC, lower(b.burner) LIMIT $1`, [options.boardSize])
    portraits = rows.rows.map(toPortrait).sort(newestFirst)
    byToken = new Map(portraits.map((p) => [p.tokenId, p]))
    board = top.rows.map(toBoardRow)
    loaded = true
  }

  /** Reads the portraits recorded since the newest one held, and the board rows of their burners. */
  async function catchUp(): Promise<void> {
    const since = portraits[0]?.atUs ?? 0n
    const fromUs = since - BigInt(overlap) * 1_000_000n
    // The portraits of the overlap window already held are left out, so a renewal reads only
    // the new rows (usually one), not the whole window again.
    const held: string[] = []
    for (const p of portraits) {
      if (p.atUs < fromUs) break
      held.push(p.tokenId)
    }
    // One statement, one snapshot: the count and the rows agree. Ordered by the gallery's index
    // and limited, so the plan is an index range scan whatever the table's statistics say (a
    // bare range on a parameter is estimated at a third of the table: a sequential scan of every
    // portrait on each renewal). More new rows than the limit: the count check reloads.
    const { rows } = await db.query<Record<string, any>>(
      `SELECT t.total, p.* FROM (SELECT coalesce((SELECT portraits FROM portrait_totals), 0)::text AS total) t
       LEFT JOIN LATERAL (SELECT ${PORTRAIT_COLUMNS} FROM portraits
         WHERE minted_at >= to_timestamp($1::double precision / 1000000) AND NOT (token_id = ANY($2::numeric[]))
         ORDER BY minted_at DESC, token_id DESC LIMIT ${CATCH_UP_LIMIT}) p ON true`,
      [fromUs.toString(), held],
    )
    const total = Number(rows[0]?.total ?? 0)
    const added = rows.filter((r) => r.token_id != null && !byToken.has(String(r.token_id))).map(toPortrait).sort(newestFirst)
    for (const p of added) {
      portraits.splice(insertionIndex(portraits, p), 0, p)
      byToken.set(p.tokenId, p)
    }
    // Portraits are never removed or rewritten: a count that differs means a row this read
    // could not see (a long transaction, a bulk load, a reset). Start again from the tables.
    if (portraits.length !== total) return loadAll()
    if (added.length === 0) return
    const burners = [...new Set(added.map((p) => p.burner))]
    const changed = await db.query<Record<string, any>>(`SELECT ${BOARD_COLUMNS} FROM burner_boards WHERE burner = ANY($1)`, [burners])
    board = mergeBoard(board, changed.rows.map(toBoardRow), options.boardSize)
  }

  /**
   * Applies what this process's own recordings wrote, when they are everything announced since
   * `synced` (one announcement per recording: nothing from the bus, the indexer or a time to
   * live in between) and each one is the next portrait the count expects. True: the models are
   * as new as `version` without a read. False: the caller reads; whatever was applied is held
   * rows the read would have brought too (committed before the read starts).
   */
  function applyTold(recordings: RecordedPortrait[], version: Version): boolean {
    if (recordings.length === 0 || version.portraits - synced.portraits !== recordings.length) return false
    if (clock() - syncedAt >= options.ttlMs) return false
    // In commit order (the count each one made): the run's own array, taken from `told`.
    for (const recording of recordings.sort((a, b) => a.total - b.total)) {
      const p = toPortrait(recording.portrait)
      // Already held: a read that started after its commit brought it, and its board row.
      if (byToken.has(p.tokenId)) continue
      if (portraits.length + 1 !== recording.total) return false
      portraits.splice(insertionIndex(portraits, p), 0, p)
      byToken.set(p.tokenId, p)
      board = mergeBoard(board, [toBoardRow(recording.board)], options.boardSize)
    }
    return true
  }

  /** Brings the models up to `want`: one read at a time, shared by every reader waiting. */
  async function current(want: Version = visible()): Promise<void> {
    for (;;) {
      if (loaded && covers(synced, want) && clock() - syncedAt < options.ttlMs) return
      if (running && covers(running.version, want)) return running.done
      if (running) {
        await running.done.catch(() => {})
        continue
      }
      const version = announced()
      const startedAt = clock()
      // The recordings told so far were committed before now: this run covers them either way.
      const recordings = told
      told = []
      const done = (loaded && applyTold(recordings, version) ? Promise.resolve() : loaded ? catchUp() : loadAll())
        .then(() => {
          synced = version
          syncedAt = startedAt
        })
        .finally(() => (running = undefined))
      running = { version, done }
      return done
    }
  }

  // A change of portraits is read from the store before readers see its version, so requests
  // arriving meanwhile are answered from the models and cached pages as they are, instead of
  // all waiting for the one renewal (nothing is held before the first read: nothing to renew).
  fresh.renewBefore('portraits', () => (loaded ? current(announced()) : Promise.resolve()))

  return {
    async gallery(limit, offset) {
      await current()
      return portraits.slice(offset, offset + limit)
    },
    async board() {
      await current()
      return board
    },
    reload() {
      loaded = false
    },
    recorded(recording) {
      // Nothing held yet: the first read loads everything anyway.
      if (!loaded || told.length >= CATCH_UP_LIMIT) return
      told.push(recording)
    },
  }
}

function toPortrait(r: Record<string, any>): HeldPortrait {
  return {
    tokenId: String(r.token_id),
    burner: r.burner,
    burnTxHash: r.burn_tx_hash,
    imageCid: r.image_cid,
    burnAmountWei: String(r.burn_amount_wei),
    mintedAt: new Date(r.minted_at),
    atUs: BigInt(r.at_us),
  }
}

function toBoardRow(r: Record<string, any>): HeldBoardRow {
  return {
    burner: r.burner,
    totalBurns: Number(r.portraits),
    totalBurnedWei: String(r.burned_wei),
    images: typeof r.images === 'string' ? JSON.parse(r.images) : r.images,
    burnedWei: BigInt(r.burned_wei),
    latestAtUs: BigInt(r.latest_us),
  }
}

const cmp = (a: bigint, b: bigint) => (a > b ? -1 : a < b ? 1 : 0)

/** The gallery's order: minted_at, then token ID, both descending. */
export function newestFirst(a: HeldPortrait, b: HeldPortrait): number {
  return cmp(a.atUs, b.atUs) || cmp(BigInt(a.tokenId), BigInt(b.tokenId))
}

/** The chadboard's order, as its query writes it (the lower-cased address breaks the last tie). */
export function boardOrder(a: HeldBoardRow, b: HeldBoardRow): number {
  if (a.totalBurns !== b.totalBurns) return b.totalBurns - a.totalBurns
  const burned = cmp(a.burnedWei, b.burnedWei) || cmp(a.latestAtUs, b.latestAtUs)
  if (burned) return burned
  const [x, y] = [a.burner.toLowerCase(), b.burner.toLowerCase()]
  return x < y ? -1 : x > y ? 1 : 0
}

function insertionIndex(sorted: HeldPortrait[], p: HeldPortrait): number {
  let lo = 0
  let hi = sorted.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (newestFirst(sorted[mid]!, p) < 0) lo = mid + 1
    else hi = mid
  }
  return lo
}

/**
 * The top `size` burners after some of them changed. A burner's rank only rises (its
 * portraits, tokens burned and latest portrait only grow), so one outside the held top can
 * enter it only by changing: the changed rows, merged with the held ones, give the new top.
 */
export function mergeBoard(held: HeldBoardRow[], changed: HeldBoardRow[], size: number): HeldBoardRow[] {
  const byBurner = new Map(held.map((r) => [r.burner, r]))
  for (const row of changed) byBurner.set(row.burner, row)
  return [...byBurner.values()].sort(boardOrder).slice(0, size)
}
