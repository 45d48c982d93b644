import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { openDb } from '../../src/store/db.ts'
import { openPgliteThread } from '../../src/store/pglite-thread.ts'
import { onlyInLeg } from '../support/env.ts'

// PGlite whatever TEST_BACKEND says, so both legs of .ci/run would run the same thing: it runs
// in the embedded leg only.
const skip = onlyInLeg('embedded')

/**
 * The embedded database of the service (PGlite in DATA_DIR) runs on a thread of its own: it
 * must behave as the in-thread one did: rows and their types, errors with their SQLSTATE,
 * transactions, statements from many callers at once, and what is written stays written.
 */
async function withDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(tmpdir(), 'b2c-pglite-thread-'))
  try {
    return await fn(dir)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

test('rows, types, errors with their fields, transactions and concurrent statements, through the thread; data survives a reopen', { skip }, () =>
  withDir(async (dir) => {
    let db = await openDb({ dataDir: dir })
    const { rows } = await db.query<{ n: string; at: Date; j: { a: number[] } }>(
      `SELECT 42::numeric(78,0)::text AS n, timestamptz '2026-11-26T12:00:00Z' AS at, '{"a":[1,2]}'::jsonb AS j`,
    )
    assert.equal(rows[0]!.n, '42')
    assert.ok(rows[0]!.at instanceof Date)
    assert.equal(rows[0]!.at.toISOString(), '2026-11-26T12:00:00.000Z')
    assert.deepEqual(rows[0]!.j, { a: [1, 2] })

    await db.query(`INSERT INTO gasless_nonces (burner, relayer_nonce, tx_key) VALUES ('0xa', 1, 'k1')`)
    // A unique violation keeps its SQLSTATE (submissions.ts reads it) and its constraint.
    const violation = await db.query(`INSERT INTO gasless_nonces (burner, relayer_nonce, tx_key) VALUES ('0xa', 1, 'k2')`).catch((error) => error)
    assert.ok(violation instanceof Error)
    assert.equal((violation as { code?: string }).code, '23505')
    assert.match(violation.message, /duplicate key/)

    // A transaction that throws leaves nothing; one that returns is committed.
    await assert.rejects(
      db.transaction(async (tx) => {
        await tx.query(`INSERT INTO gasless_nonces (burner, relayer_nonce, tx_key) VALUES ('0xb', 1, 'rolled back')`)
        throw new Error('no')
      }),
      /no/,
    )
    await db.transaction((tx) => tx.query(`INSERT INTO gasless_nonces (burner, relayer_nonce, tx_key) VALUES ('0xc', 1, 'kept')`))
    // Many callers at once, statements and transactions interleaved: each gets its own answer.
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        i % 5 === 0
          ? db.transaction(async (tx) => (await tx.query<{ v: number }>('SELECT $1::int AS v', [i])).rows[0]!.v)
          : db.query<{ v: number }>('SELECT $1::int AS v', [i]).then((r) => r.rows[0]!.v),
      ),
    )
    assert.deepEqual(answers, Array.from({ length: 50 }, (_, i) => i))
    await db.close()

    db = await openDb({ dataDir: dir })
    const kept = await db.query<{ tx_key: string }>('SELECT tx_key FROM gasless_nonces ORDER BY burner')
    assert.deepEqual(kept.rows.map((r) => r.tx_key), ['k1', 'kept'])
    await db.close()
  }))

test('a thread that cannot open its database fails the open, with the cause', { skip }, async () => {
  await withDir(async (dir) => {
    // A file where the data directory should be.
    const file = path.join(dir, 'not-a-directory')
    await (await import('node:fs/promises')).writeFile(file, 'x')
    await assert.rejects(openPgliteThread(file))
  })
})
