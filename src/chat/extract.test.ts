import { test } from 'node:test'
import assert from 'node:assert/strict'
import { extractEntities } from './extract.ts'

test('addresses come out EIP-55, names lower-cased, transaction hashes ignored', () => {
  const e = extractEntities(`compare 0x70997970c51812dc3a010c7d01b50e0d17dc79c8 with Alice.MEGA, tx 0x${'ab'.repeat(32)}`)
  assert.deepEqual(e.addresses, ['0x70997970C51812dc3A010C7d01b50e0d17dc79C8'])
  assert.deepEqual(e.names, ['alice.mega'])
})

test('amounts with units and scales', () => {
  assert.deepEqual(extractEntities('buy 0.5eth of megachad').amounts, [{ value: '0.5', token: 'ETH', raw: '0.5eth' }])
  assert.equal(extractEntities('stake 1.5m mc').amounts[0]!.value, '1500000')
  assert.equal(extractEntities('burn 225k').amounts[0]!.value, '225000')
  assert.equal(extractEntities('swap 1,000 mc for mg').amounts[0]!.value, '1000')
  assert.deepEqual(extractEntities('quote 500000000000000000 wei').amounts[0], { value: '0.5', token: 'ETH', raw: '500000000000000000 wei' })
  assert.deepEqual(extractEntities('swap 1000 mc for mg').tokens, ['MC', 'MG'])
  assert.deepEqual(extractEntities('buy 225000 tokens').amounts, [{ value: '225000', token: 'MC', raw: '225000 tokens' }], 'tokens are MEGACHAD, never ETH')
  assert.deepEqual(extractEntities('how much eth to buy 225k tokens').amounts, [{ value: '225000', token: 'MC', raw: '225k tokens' }])
  assert.deepEqual(extractEntities('buy megachad with half an eth').amounts, [{ value: '0.5', token: 'ETH', raw: '0.5 eth' }])
  assert.deepEqual(extractEntities('half the tokens').amounts, [])
})

test('counts: "3 times", "x3", "three portraits", "twice", "burn 4"', () => {
  for (const [message, count] of [['burn 3 times', 3], ['x3 looksmaxx', 3], ['three portraits pls', 3], ['burn twice', 2], ['batch burn 4', 4], ['i want 5 pfps', 5]] as const) {
    assert.equal(extractEntities(message).count, count, message)
  }
  assert.equal(extractEntities('burn 225000 tokens').count, undefined)
})

test('proposal ids, support, venues and chains', () => {
  assert.equal(extractEntities('vote against prop #4').proposalId, 4)
  assert.equal(extractEntities('vote against prop #4').support, 'against')
  assert.equal(extractEntities('abstain on #5').support, 'abstain')
  assert.equal(extractEntities('vote yes on proposal 2').support, 'for')
  assert.equal(extractEntities('proposal id 12').proposalId, 12)
  assert.equal(extractEntities('stake in moggr').venue, 'mogger')
  assert.equal(extractEntities('claim from jestr').venue, 'jester')
  for (const [message, chain] of [['from arb', 'arbitrum'], ['bridge from eth', 'ethereum'], ['on bsc', 'bnb'], ['avax funds', 'avalanche'], ['from op', 'optimism'], ['from mainnet', 'ethereum'], ['polygon', 'polygon'], ['on base', 'base']] as const) {
    assert.equal(extractEntities(message).chain, chain, message)
  }
  assert.equal(extractEntities('the base fee').chain, undefined)
  assert.equal(extractEntities('buy 1 eth of mc').chain, undefined)
})
