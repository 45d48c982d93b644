import { test } from 'node:test'
import assert from 'node:assert/strict'
import { allocateNonces } from './allocate-nonces.ts'

test('new nonces follow the highest stored one while stored transactions are not on chain yet', () => {
  assert.deepEqual(allocateNonces(5, 9, 3), [10, 11, 12])
})

test('new nonces follow the chain when the key was used outside the service', () => {
  assert.deepEqual(allocateNonces(20, 9, 2), [20, 21])
  assert.deepEqual(allocateNonces(3, undefined, 2), [3, 4])
})

test('the first transaction of a key starts at the chain count; none asked, none given', () => {
  assert.deepEqual(allocateNonces(0, undefined, 1), [0])
  assert.deepEqual(allocateNonces(7, 9, 0), [])
})
