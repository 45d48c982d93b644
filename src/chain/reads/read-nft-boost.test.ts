import { test } from 'node:test'
import assert from 'node:assert/strict'
import { nftBoost } from './read-nft-boost.ts'

test('boost tiers: none without an NFT, 1.000x from 1, 1.075x from 10, 1.150x from 25', () => {
  const rows = [0n, 1n, 9n, 10n, 24n, 25n, 1000n].map((n) => [n, nftBoost(n).multiplierBps, nftBoost(n).eligible, nftBoost(n).nextTierAt])
  assert.deepEqual(rows, [
    [0n, 0n, false, 1n],
    [1n, 10_000n, true, 10n],
    [9n, 10_000n, true, 10n],
    [10n, 10_750n, true, 25n],
    [24n, 10_750n, true, 25n],
    [25n, 11_500n, true, null],
    [1000n, 11_500n, true, null],
  ])
})
