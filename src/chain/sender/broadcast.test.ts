import { test } from 'node:test'
import assert from 'node:assert/strict'
import { classifyBroadcastError } from './broadcast.ts'

test('refusals of eth_sendRawTransaction are read as what they mean for a stored transaction', () => {
  // EDR / Hardhat, geth and others word them differently.
  assert.equal(classifyBroadcastError('Nonce too high. Expected nonce to be 3 but got 5.'), 'nonce-gap')
  assert.equal(classifyBroadcastError('transaction would create a nonce gap'), 'nonce-gap')
  assert.equal(classifyBroadcastError('already known'), 'already-sent')
  assert.equal(classifyBroadcastError('Nonce too low. Expected nonce to be 6 but got 5.'), 'already-sent')
  assert.equal(classifyBroadcastError('Known transaction: 0xabc'), 'already-sent')
  assert.equal(classifyBroadcastError('insufficient funds for gas * price + value'), 'refused')
  assert.equal(classifyBroadcastError('replacement transaction underpriced'), 'refused')
})
