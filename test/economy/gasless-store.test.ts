import { test } from 'node:test'
import assert from 'node:assert/strict'
import { openDb, type Db } from '../../src/store/db.ts'
import { claimNonce, findNonceHolder, findRelayBySignature, recordRelayRequest } from '../../src/store/gasless-relays.ts'
import { createTestDatabase } from '../support/postgres.ts'
import { pooledPglite } from '../support/pglite-pool.ts'
import { TEST_DATABASE_URL } from '../support/env.ts'

/**
 * The relay requests that arrive together share their statements (one claim, one record, one
 * look-up for the burst); each request must still get exactly the answer it would get alone.
 */
const ALICE = '0x00000000000000000000000000000000000A11cE'
const BOB = '0x0000000000000000000000000000000000000B0b'
const sig = (n: number) => `0x${n.toString(16).padStart(130, '0')}`

async function withDb(fn: (db: Db) => Promise<void>) {
  const pg = TEST_DATABASE_URL ? await createTestDatabase() : undefined
  const db = pg ? await openDb({ url: pg.url }) : await pooledPglite()
  try {
    await fn(db)
  } finally {
    await db.close()
    await pg?.drop()
  }
}

test('claims of one tick: one winner per (burner, nonce), in call order; the same key twice is one relay; the winner is recorded with its claim', () =>
  withDb(async (db) => {
    const request = (n: number, deadline = 1_000 + n) => ({ signature: sig(n), deadline })
    const claims = await Promise.all([
      claimNonce(db, ALICE, 0n, 'k-alice-0-a', request(1)),
      claimNonce(db, ALICE, 0n, 'k-alice-0-b', request(2)),
      claimNonce(db, BOB, 0n, 'k-bob-0', request(3)),
      claimNonce(db, BOB, 0n, 'k-bob-0', request(3)),
      claimNonce(db, ALICE, 1n, 'k-alice-1'),
    ])
    assert.deepEqual(claims, [true, false, true, true, true])
    assert.equal(await findNonceHolder(db, ALICE, 0n), 'k-alice-0-a')
    assert.equal(await findNonceHolder(db, BOB, 0n), 'k-bob-0')
    // Recorded with the claim: the winners that brought their request, and only them.
    assert.deepEqual(
      await Promise.all([findRelayBySignature(db, ALICE, sig(1)), findRelayBySignature(db, ALICE, sig(2)), findRelayBySignature(db, BOB, sig(3).toUpperCase().replace('0X', '0x'))]),
      ['k-alice-0-a', undefined, 'k-bob-0'],
    )
    const { rows } = await db.query<{ n: string }>('SELECT count(*)::text AS n FROM gasless_relays')
    assert.equal(rows[0]!.n, '2')
    // Claimed again later, even by its holder: not taken (the caller then asks who holds it).
    assert.deepEqual(await Promise.all([claimNonce(db, ALICE, 0n, 'k-alice-0-c', request(4)), claimNonce(db, ALICE, 0n, 'k-alice-0-a')]), [false, false])
    assert.equal(await findNonceHolder(db, ALICE, 0n), 'k-alice-0-a')
    assert.equal(await findRelayBySignature(db, ALICE, sig(4)), undefined)
  }))

test('records of one (burner, nonce, deadline): the first stays, a later one with the same deadline is not recorded, another deadline is', () =>
  withDb(async (db) => {
    // One after another: each record is a statement of its own (no longer batched per tick), and
    // on PostgreSQL statements sent together on a pool's connections commit in no set order, so
    // "first" is the first to be sent only when the next waits for it (CI saw 'second' win).
    const records: Array<Parameters<typeof recordRelayRequest>[1]> = [
      { burner: ALICE, nonce: 5n, signature: sig(10), deadline: 99, txKey: 'first' },
      { burner: ALICE, nonce: 5n, signature: sig(11), deadline: 99, txKey: 'second' },
      { burner: ALICE, nonce: 5n, signature: sig(12), deadline: 100, txKey: 'other deadline' },
    ]
    for (const record of records) await recordRelayRequest(db, record)
    assert.deepEqual(
      await Promise.all([sig(10), sig(11), sig(12)].map((s) => findRelayBySignature(db, ALICE, s))),
      ['first', undefined, 'other deadline'],
    )
  }))
