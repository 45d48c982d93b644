import { test } from 'node:test'
import assert from 'node:assert/strict'
import { MethodNotFoundRpcError, RpcRequestError, UnknownRpcError } from 'viem'
import { classifySyncError, rpcErrorOf } from './broadcast-refusal.ts'

/** What viem throws for a JSON-RPC error answer: the node's error inside its own. */
const answered = (error: { code: number; message: string; data?: unknown }) => {
  const request = new RpcRequestError({ body: {}, error, url: 'http://node' })
  return error.code === -32601 ? new MethodNotFoundRpcError(request) : new UnknownRpcError(request)
}

test("the node's JSON-RPC error is found inside viem's, with its code and data", () => {
  const hash = `0x${'ab'.repeat(32)}`
  assert.deepEqual({ ...rpcErrorOf(answered({ code: 4, message: 'not processed in 2s', data: hash })), message: '' }, { code: 4, message: '', data: hash })
  assert.match(rpcErrorOf(answered({ code: 4, message: 'not processed in 2s', data: hash })).message, /not processed in 2s/)
  assert.equal(rpcErrorOf(new Error('fetch failed')).code, undefined)
})

test('errors of eth_sendRawTransactionSync read as what they mean for a stored transaction', () => {
  assert.equal(classifySyncError(rpcErrorOf(answered({ code: -32601, message: 'the method eth_sendRawTransactionSync does not exist/is not available' }))), 'unsupported')
  assert.equal(classifySyncError({ code: -32004, message: 'Method eth_sendRawTransactionSync is not supported' }), 'unsupported')
  assert.equal(classifySyncError({ code: -32000, message: 'method not found' }), 'unsupported')
  assert.equal(classifySyncError(rpcErrorOf(answered({ code: 4, message: 'The transaction was added to the mempool but wasn\'t processed in 2s.' }))), 'pending')
  assert.equal(classifySyncError(rpcErrorOf(answered({ code: 5, message: 'missing nonce or insufficient funds' }))), 'nonce-gap')
  // The refusals of eth_sendRawTransaction keep their meaning.
  assert.equal(classifySyncError(rpcErrorOf(answered({ code: -32000, message: 'Nonce too high. Expected nonce to be 3 but got 5.' }))), 'nonce-gap')
  assert.equal(classifySyncError({ code: -32000, message: 'already known' }), 'already-sent')
  assert.equal(classifySyncError({ code: -32000, message: 'nonce too low' }), 'already-sent')
  assert.equal(classifySyncError({ code: -32000, message: 'insufficient funds for gas * price + value' }), 'refused')
  assert.equal(classifySyncError({ code: -32000, message: 'transaction type not supported' }), 'refused')
  assert.equal(classifySyncError({ message: 'The request took too long to respond.' }), 'refused')
})
