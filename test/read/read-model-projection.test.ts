import { test } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { openDb, resetData, type Db } from '../../src/store/db.ts'
import { pooledPglite } from '../support/pglite-pool.ts'
import { insertPortrait, listBurnerTotals, listPortraits, rebuildReadModels } from '../../src/store/portraits.ts'
import { createPortraitProjection, type PortraitProjection } from '../../src/store/portrait-projection.ts'
import { createFreshness, type Freshness } from '../../src/cache/freshness.ts'
import { createMemoryBus } from '../../src/adapters/bus/memory.ts'
import { createTestDatabase } from '../support/postgres.ts'
import { TEST_DATABASE_URL, needsPostgres, onlyInLeg } from '../support/env.ts'

/**
 * The gallery and chadboard read models held in memory agree with the tables after any
 * sequence of writes, on the instance that wrote (read-your-writes) and on another instance
 * that only heard the invalidation, and after writes their incremental read cannot see.
 */
const E18 = 10n ** 18n
const BOARD = 4
const BURNERS = ['0x00000000000000000000000000000000000A11cE', '0x0000000000000000000000000000000000000B0b', '0x000000000000000000000000000000000000CafE', '0x000000000000000000000000000000000000dEaD', '0x00000000000000000000000000000000000F00D5', '0x0000000000000000000000000000000000000Ace']
const portrait = (n: number, burner: string, burnTokens = 225_000n) => ({
  tokenId: BigInt(n), burner, burnTxHash: `0x${String(n).padStart(64, 'a')}`, devTxHash: `0x${String(n).padStart(64, 'b')}`,
  burnAmountWei: burnTokens * E18, deadAmountWei: (burnTokens / 2n) * E18, imageCid: `bafkcid${n}`, metadataCid: `meta${n}`, mintTxHash: `0x${String(n).padStart(64, 'c')}`, source: 'x402-agent',
})

const galleryView = (rows: Array<{ tokenId: string; burner: string; burnTxHash: string; imageCid: string; burnAmountWei: string; mintedAt: Date }>) =>
  rows.map((r) => [r.tokenId, r.burner, r.burnTxHash, r.imageCid, r.burnAmountWei, r.mintedAt.toISOString()])
const boardView = (rows: Array<{ burner: string; totalBurns: number; totalBurnedWei: string; images: unknown }>) => rows.map((r) => [r.burner, r.totalBurns, r.totalBurnedWei, r.images])

async function agrees(db: Db, projection: PortraitProjection, page: { limit: number; offset: number }, who: string) {
  assert.deepEqual(galleryView(await projection.gallery(page.limit, page.offset)), galleryView(await listPortraits(db, page.limit, page.offset)), `${who}: gallery ${JSON.stringify(page)}`)
  assert.deepEqual(boardView(await projection.board()), boardView(await listBurnerTotals(db, BOARD)), `${who}: chadboard`)
}

/** Two instances sharing one database and one bus, each with its freshness and read models. */
function instances(db: Db) {
  const bus = createMemoryBus()
  const make = () => {
    const fresh = createFreshness(bus)
    return { fresh, projection: createPortraitProjection(db, fresh, { boardSize: BOARD, ttlMs: 60_000 }) }
  }
  return { a: make(), b: make() }
}

/** As the pipeline records a mint: the recording told to the writer's models (when given), then announced. */
async function record(db: Db, fresh: Freshness, p: ReturnType<typeof portrait>, tell?: PortraitProjection) {
  const recorded = await db.transaction((tx) => insertPortrait(tx, p))
  if (recorded && tell) tell.recorded(recorded)
  await fresh.changed(['portraits'])
}

const action = fc.oneof(
  // `tell`: the writer's models are told what it recorded (the pipeline's path), or only hear the announcement.
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('mint' as const), on: fc.constantFrom('a' as const, 'b' as const), token: fc.integer({ min: 1, max: 40 }), burner: fc.integer({ min: 0, max: BURNERS.length - 1 }), tokens: fc.constantFrom(225_000n, 450_000n), tell: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('transfer' as const), on: fc.constantFrom('a' as const, 'b' as const), token: fc.integer({ min: 1, max: 40 }), to: fc.integer({ min: 0, max: BURNERS.length - 1 }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('read' as const), on: fc.constantFrom('a' as const, 'b' as const), limit: fc.integer({ min: 1, max: 50 }), offset: fc.integer({ min: 0, max: 45 }) }) },
)

test('after any sequence of mints and transfers, on either instance, both read models agree with the tables', async () => {
  const db = await pooledPglite()
  try {
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 1, maxLength: 20 }), async (actions) => {
        await resetData(db)
        const both = instances(db)
        for (const step of actions) {
          const { fresh, projection } = both[step.on]
          if (step.kind === 'mint') await record(db, fresh, portrait(step.token, BURNERS[step.burner]!, step.tokens), step.tell ? projection : undefined)
          else if (step.kind === 'transfer') {
            // An NFT changing hands, as the indexer records it: the gallery and chadboard show
            // burners, so nothing they hold changes, but the event still renews them.
            await db.query(`INSERT INTO nft_owners (token_id, owner, minted_block, minted_at) VALUES ($1, $2, 1, now()) ON CONFLICT (token_id) DO UPDATE SET owner = EXCLUDED.owner`, [step.token, BURNERS[step.to]])
            await fresh.changed(['portraits'])
          } else await agrees(db, projection, step, step.on)
        }
        // Whoever wrote, the first read on each instance shows every write.
        await agrees(db, both.a.projection, { limit: 50, offset: 0 }, 'a')
        await agrees(db, both.b.projection, { limit: 50, offset: 0 }, 'b')
      }),
      { numRuns: 20 },
    )
  } finally {
    await db.close()
  }
})

test('a full load ranks burners by the amount burned, not by its digits (found by the property above: 675,000 tokens ranked above 1,125,000)', async () => {
  const db = await pooledPglite()
  try {
    await resetData(db)
    const { a } = instances(db)
    // Two burners with three portraits each: the ranking falls to the amount burned.
    for (const [token, burner, tokens] of [[2, 0, 225_000n], [3, 5, 225_000n], [4, 5, 225_000n], [5, 0, 450_000n], [6, 5, 225_000n], [1, 0, 450_000n]] as const) {
      await record(db, a.fresh, portrait(token, BURNERS[burner]!, tokens))
    }
    assert.deepEqual((await a.projection.board()).map((r) => [r.burner, r.totalBurns, r.totalBurnedWei]), [
      [BURNERS[0], 3, String(1_125_000n * E18)],
      [BURNERS[5], 3, String(675_000n * E18)],
    ])
    await agrees(db, a.projection, { limit: 10, offset: 0 }, 'a')
  } finally {
    await db.close()
  }
})

test('a bulk load nobody announced is seen once the models reload, or within their time to live', async () => {
  const db = await pooledPglite()
  try {
    let now = 0
    const fresh = createFreshness(createMemoryBus())
    const projection = createPortraitProjection(db, fresh, { boardSize: BOARD, ttlMs: 5_000, clock: () => now })
    await record(db, fresh, portrait(1, BURNERS[0]!))
    await agrees(db, projection, { limit: 20, offset: 0 }, 'before')
    // Rows written straight to the table, older than anything held: no event, and outside any
    // incremental read; the totals the recording transactions keep are rebuilt after it.
    await db.query(`INSERT INTO portraits (token_id, burner, burn_tx_hash, dev_tx_hash, burn_amount_wei, image_cid, metadata_cid, mint_tx_hash, source, minted_at)
      SELECT n, $1, 'h' || n, 'd' || n, 225000000000000000000000, 'c' || n, 'm' || n, 'x' || n, 'x402-agent', now() - (n || ' hours')::interval FROM generate_series(2, 9) n`, [BURNERS[1]])
    await rebuildReadModels(db)
    assert.equal((await projection.gallery(20, 0)).length, 1, 'unannounced, within the time to live: not seen yet')
    now += 5_000
    await agrees(db, projection, { limit: 20, offset: 0 }, 'past the time to live')
    projection.reload()
    await agrees(db, projection, { limit: 5, offset: 3 }, 'after reload')
  } finally {
    await db.close()
  }
})

test('a recording transaction that commits after a newer one is not lost (PostgreSQL)', { skip: onlyInLeg('postgres', needsPostgres) }, async () => {
  const pg = await createTestDatabase()
  const db = await openDb({ url: pg.url })
  try {
    const fresh = createFreshness(createMemoryBus())
    // No overlap: the incremental read looks only from the newest portrait held, so the late
    // commit below is found by the count check alone.
    const projection = createPortraitProjection(db, fresh, { boardSize: BOARD, ttlMs: 60_000, overlapSeconds: 0 })
    await record(db, fresh, portrait(1, BURNERS[0]!))
    await agrees(db, projection, { limit: 20, offset: 0 }, 'start')
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    let started!: () => void
    const begun = new Promise<void>((resolve) => (started = resolve))
    // A long transaction: its minted_at is its start, before the portrait recorded next.
    const slow = db.transaction(async (tx) => {
      await tx.query('SELECT now()')
      started()
      await held
      await insertPortrait(tx, portrait(2, BURNERS[1]!))
    })
    await begun
    await record(db, fresh, portrait(3, BURNERS[2]!))
    await agrees(db, projection, { limit: 20, offset: 0 }, 'the newer one')
    release()
    await slow
    await fresh.changed(['portraits'])
    await agrees(db, projection, { limit: 20, offset: 0 }, 'after the late commit')
    assert.deepEqual((await projection.gallery(20, 0)).map((p) => p.tokenId), ['3', '2', '1'])
  } finally {
    await db.close()
    await pg.drop()
  }
})

test('a change is read from the store before readers see it: reads meanwhile do not wait, and reads after it query nothing', async () => {
  const db = await pooledPglite()
  try {
    // The projection's own view of the store: counts its queries, and can hold them.
    let queries = 0
    let gate: Promise<void> | undefined
    const watched = {
      async query(sql: string, params?: unknown[]) {
        queries++
        if (gate) await gate
        return db.query(sql, params)
      },
      exec: (sql: string) => db.exec(sql),
    }
    const fresh = createFreshness(createMemoryBus())
    const projection = createPortraitProjection(watched as never, fresh, { boardSize: BOARD, ttlMs: 60_000 })
    await record(db, fresh, portrait(1, BURNERS[0]!))
    assert.deepEqual((await projection.gallery(20, 0)).map((p) => p.tokenId), ['1'])

    let open!: () => void
    gate = new Promise<void>((resolve) => (open = resolve))
    await db.transaction((tx) => insertPortrait(tx, portrait(2, BURNERS[1]!)))
    let returned = false
    const change = fresh.changed(['portraits']).then(() => (returned = true))
    // The renewal is held in the store: a reader now is answered at once with what was
    // visible (the write has not returned to its caller), not queued behind it.
    const during = await Promise.race([projection.gallery(20, 0), new Promise<'waited'>((resolve) => setTimeout(() => resolve('waited'), 200))])
    assert.notEqual(during, 'waited', 'a read during the renewal waited for it')
    assert.deepEqual((during as Awaited<ReturnType<typeof projection.gallery>>).map((p) => p.tokenId), ['1'])
    assert.equal(returned, false, 'the change returned before its renewal')
    open()
    gate = undefined
    await change
    const before = queries
    assert.deepEqual((await projection.gallery(20, 0)).map((p) => p.tokenId), ['2', '1'], 'read-your-writes once the change returned')
    assert.deepEqual(boardView(await projection.board()), boardView(await listBurnerTotals(db, BOARD)))
    assert.equal(queries, before, 'the reads after the change were answered from the renewed models')
  } finally {
    await db.close()
  }
})

test('a renewal the store holds up does not hold the write past its bound: the change becomes visible, and readers then wait for the data', async () => {
  const db = await pooledPglite()
  try {
    let gate: Promise<void> | undefined
    const held = { query: async (sql: string, params?: unknown[]) => { if (gate) await gate; return db.query(sql, params) }, exec: (sql: string) => db.exec(sql) }
    const fresh = createFreshness(createMemoryBus(), undefined, { renewWaitMs: 50 })
    const projection = createPortraitProjection(held as never, fresh, { boardSize: BOARD, ttlMs: 60_000 })
    await record(db, fresh, portrait(1, BURNERS[0]!))
    assert.equal((await projection.gallery(20, 0)).length, 1)
    let open!: () => void
    gate = new Promise<void>((resolve) => (open = resolve))
    await db.transaction((tx) => insertPortrait(tx, portrait(2, BURNERS[1]!)))
    const before = fresh.stamp(['portraits'])
    await fresh.changed(['portraits'])
    assert.notEqual(fresh.stamp(['portraits']), before, 'visible once the bound passed')
    const read = projection.gallery(20, 0)
    open()
    gate = undefined
    assert.deepEqual((await read).map((p) => p.tokenId), ['2', '1'], 'a read after the write shows it')
  } finally {
    await db.close()
  }
})

/** A store that counts the projection's statements. */
function counted(db: Db) {
  const store = { queries: 0, query: async (sql: string, params?: unknown[]) => { store.queries++; return db.query(sql, params) }, exec: (sql: string) => db.exec(sql) }
  return store
}

test('a recording told to the models renews them without a statement, and the reads after it show it', async () => {
  const db = await pooledPglite()
  try {
    const store = counted(db)
    const fresh = createFreshness(createMemoryBus())
    const projection = createPortraitProjection(store as never, fresh, { boardSize: BOARD, ttlMs: 60_000 })
    await record(db, fresh, portrait(1, BURNERS[0]!), projection)
    await agrees(db, projection, { limit: 20, offset: 0 }, 'first load')
    for (const [n, burner] of [[2, 1], [3, 0], [4, 2]] as const) {
      const before = store.queries
      await record(db, fresh, portrait(n, BURNERS[burner]!), projection)
      await projection.gallery(20, 0)
      await projection.board()
      assert.equal(store.queries, before, `mint ${n}: renewed and read without a statement`)
      await agrees(db, projection, { limit: 20, offset: 0 }, `after mint ${n}`)
    }
  } finally {
    await db.close()
  }
})

test('recordings the models cannot place are read from the store: one of ours missed, another instance\'s not heard yet, past the time to live', async () => {
  const db = await pooledPglite()
  try {
    let now = 0
    const store = counted(db)
    const bus = createMemoryBus()
    const fresh = createFreshness(bus)
    const other = createFreshness(bus)
    const projection = createPortraitProjection(store as never, fresh, { boardSize: BOARD, ttlMs: 5_000, clock: () => now })
    await record(db, fresh, portrait(1, BURNERS[0]!), projection)
    await agrees(db, projection, { limit: 20, offset: 0 }, 'first load')
    const renewsByReading = async (what: string, write: () => Promise<void>) => {
      const before = store.queries
      await write()
      assert.ok(store.queries > before, `${what}: read from the store`)
      await agrees(db, projection, { limit: 20, offset: 0 }, what)
    }
    // Mint 2 was recorded but never told (a retried saga): mint 3 is not the next the count expects.
    await renewsByReading('a recording missed', async () => {
      await db.transaction((tx) => insertPortrait(tx, portrait(2, BURNERS[1]!)))
      await record(db, fresh, portrait(3, BURNERS[1]!), projection)
    })
    // Another instance's mint whose announcement has not arrived yet: ours is not the next.
    await renewsByReading('another instance wrote too', async () => {
      await db.transaction((tx) => insertPortrait(tx, portrait(4, BURNERS[2]!)))
      await record(db, fresh, portrait(5, BURNERS[3]!), projection)
    })
    // Its announcement, arriving late, finds nothing new: one statement, and nothing changes.
    const before = store.queries
    await other.changed(['portraits'])
    assert.equal(store.queries, before + 1)
    await agrees(db, projection, { limit: 20, offset: 0 }, 'the late announcement')
    // Past the models' time to live they look at the store again, told or not.
    now += 5_000
    await renewsByReading('past the time to live', () => record(db, fresh, portrait(6, BURNERS[0]!), projection))
  } finally {
    await db.close()
  }
})
