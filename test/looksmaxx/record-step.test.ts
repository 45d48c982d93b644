import { test, after } from 'node:test'
import assert from 'node:assert/strict'
import { openDb, type Db } from '../../src/store/db.ts'
import { pooledPglite } from '../support/pglite-pool.ts'
import { claimSubmission, getSubmission, listSteps, recordStep, markSettleAttempted } from '../../src/store/submissions.ts'
import { createTestDatabase } from '../support/postgres.ts'
import { TEST_DATABASE_URL, needsPostgres, onlyInLeg } from '../support/env.ts'

/**
 * The store's step log: a step's result and its log entry are written together or not at
 * all, so the status a client reads never runs ahead of (or behind) the steps it is shown.
 */
const backends: Array<['pglite' | 'postgres', () => Promise<{ db: Db; drop(): Promise<void> }>]> = [
  ['pglite', async () => ({ db: await pooledPglite(), drop: async () => {} })],
  [
    'postgres',
    async () => {
      const pg = await createTestDatabase()
      return { db: await openDb({ url: pg.url }), drop: pg.drop }
    },
  ],
]

const opened: Array<() => Promise<void>> = []
after(async () => {
  for (const close of opened) await close()
})

let counter = 0
const hash = () => `0x${(++counter).toString(16).padStart(64, '0')}` as `0x${string}`

for (const [kind, open] of backends) {
  // Each backend's cases run in its own leg of .ci/run (identical in the other).
  const skip = kind === 'postgres' ? onlyInLeg('postgres', needsPostgres) : onlyInLeg('embedded')
  test(`${kind}: a step whose log entry cannot be written leaves the status unchanged`, { skip }, async () => {
    const { db, drop } = await open()
    opened.push(async () => {
      await db.close()
      await drop()
    })
    const claim = await claimSubmission(db, {
      source: 'burn-to-create',
      burnTxHash: hash(),
      devTxHash: hash(),
      burner: '0x000000000000000000000000000000000000bEEF',
      burnAmountWei: 225_000n * 10n ** 18n,
      claimedBlock: 1n,
      image: { bytes: new Uint8Array([1, 2, 3]), mimeType: 'image/png' },
      leaseOwner: 'test',
      leaseMs: 1000,
    })
    assert.ok(claim.claimed)
    const id = claim.submission.id
    assert.equal(claim.submission.status, 'settled')

    // The log entry fails (a step name is required); the status update must roll back with it.
    await assert.rejects(recordStep(db, id, null as unknown as string, { status: 'generated', imageCid: 'bafy-not-recorded' }))
    const after = await getSubmission(db, id)
    assert.equal(after!.status, 'settled', 'the status did not move without its step')
    assert.equal(after!.imageCid, null)
    assert.deepEqual((await listSteps(db, id)).map((s) => s.step), ['claimed'])

    // A good step writes both.
    const generated = await recordStep(db, id, 'generated', { status: 'generated', imageCid: 'bafy-ok' }, { imageCid: 'bafy-ok' })
    assert.equal(generated.status, 'generated')
    assert.deepEqual((await listSteps(db, id)).map((s) => s.step), ['claimed', 'generated'])
  })

  test(`${kind}: the settle-attempted mark is taken once, and only while settling`, { skip }, async () => {
    const { db, drop } = await open()
    opened.push(async () => {
      await db.close()
      await drop()
    })
    const claim = await claimSubmission(db, {
      source: 'x402-agent',
      burnTxHash: hash(),
      devTxHash: hash(),
      burner: '0x000000000000000000000000000000000000bEEF',
      burnAmountWei: 225_000n * 10n ** 18n,
      payment: { from: '0x000000000000000000000000000000000000bEEF', nonce: hash(), validBefore: 2n ** 40n, payload: {}, requirements: {} },
      claimedBlock: 1n,
      image: { bytes: new Uint8Array([1, 2, 3]), mimeType: 'image/png' },
      leaseOwner: 'test',
      leaseMs: 1000,
    })
    assert.ok(claim.claimed)
    assert.equal(claim.submission.settleAttemptedAt, null, 'a fresh claim was never sent to settle')
    const marks = await Promise.all([markSettleAttempted(db, claim.submission.id), markSettleAttempted(db, claim.submission.id)])
    assert.deepEqual(marks.sort(), [false, true], 'exactly one caller may call settle')
    assert.ok((await getSubmission(db, claim.submission.id))!.settleAttemptedAt instanceof Date)
  })
}
