import { test } from 'node:test'
import assert from 'node:assert/strict'
import { resetData } from '../../src/store/db.ts'
import { pooledPglite } from '../support/pglite-pool.ts'
import { getPortraitTotals, insertPortrait, listBurnerTotals } from '../../src/store/portraits.ts'

const E18 = 10n ** 18n
const portrait = (n: number, burner: string) => ({
  tokenId: BigInt(n), burner, burnTxHash: `0x${String(n).padStart(64, 'a')}`, devTxHash: `0x${String(n).padStart(64, 'b')}`,
  burnAmountWei: 225_000n * E18, deadAmountWei: 112_500n * E18, imageCid: `cid${n}`, metadataCid: `meta${n}`, mintTxHash: `0x${String(n).padStart(64, 'c')}`, source: 'x402-agent',
})

test('the chadboard rows and the stats totals follow every recorded portrait, once, and survive a reset', async () => {
  const db = await pooledPglite()
  try {
    const alice = '0x00000000000000000000000000000000000A11cE'
    const bob = '0x0000000000000000000000000000000000000B0b'
    for (const [n, who] of [[1, alice], [2, bob], [3, alice], [3, alice]] as const) await db.transaction((tx) => insertPortrait(tx, portrait(n, who)))
    assert.deepEqual(await getPortraitTotals(db), { portraits: 3, beyondDeadWei: 3n * 112_500n * E18 }, 'a portrait recorded twice counts once')
    const board = await listBurnerTotals(db, 100)
    assert.deepEqual(board.map((b) => [b.burner, b.totalBurns, b.totalBurnedWei]), [[alice, 2, (450_000n * E18).toString()], [bob, 1, (225_000n * E18).toString()]])
    assert.deepEqual(board[0]!.images.map((i) => i.imageCid), ['cid3', 'cid1'], 'newest first')
    assert.match(board[0]!.images[0]!.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)

    await resetData(db) // a fresh devnet clears the embedded database
    await db.transaction((tx) => insertPortrait(tx, portrait(1, bob)))
    assert.deepEqual(await getPortraitTotals(db), { portraits: 1, beyondDeadWei: 112_500n * E18 })
  } finally {
    await db.close()
  }
})
