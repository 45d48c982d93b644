import { test } from 'node:test'
import assert from 'node:assert/strict'
import { replacementFees } from './replace-tx.ts'

const gwei = 10n ** 9n

test('a replacement pays a quarter more than the version it replaces (plus one wei, so nodes accept it)', () => {
  assert.deepEqual(replacementFees({ maxFeePerGas: 4n * gwei, maxPriorityFeePerGas: 2n * gwei }, { maxFeePerGas: 1n, maxPriorityFeePerGas: 1n }), {
    maxFeePerGas: 5n * gwei + 1n,
    maxPriorityFeePerGas: 25n * gwei / 10n + 1n,
  })
})

test('a replacement pays at least the current fees, and its max fee covers its tip', () => {
  assert.deepEqual(replacementFees({ maxFeePerGas: 4n * gwei, maxPriorityFeePerGas: 2n * gwei }, { maxFeePerGas: 40n * gwei, maxPriorityFeePerGas: 3n * gwei }), {
    maxFeePerGas: 40n * gwei,
    maxPriorityFeePerGas: 3n * gwei,
  })
  assert.deepEqual(replacementFees({ maxFeePerGas: 1n * gwei, maxPriorityFeePerGas: 1n * gwei }, { maxFeePerGas: 0n, maxPriorityFeePerGas: 8n * gwei }), {
    maxFeePerGas: 8n * gwei,
    maxPriorityFeePerGas: 8n * gwei,
  })
})
