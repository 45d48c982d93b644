import { test } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { extractEntities } from './extract.ts'
import { classify } from './classify.ts'

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

test('recipients come only from an explicit phrase: "to", "for", "recipient" and a closed list of words between', () => {
  const a = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
  const A = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
  for (const message of [`swap 1 eth to ${a}`, `buy mc for ${a}`, `to my other wallet ${a}`, `recipient: ${a}`, `send the tokens to wallet at ${a}`, `beneficiary ${a}`]) {
    assert.deepEqual(extractEntities(message).recipients, [A], message)
  }
  for (const message of [`swap 0.01 eth for megachad, tx from ${a} said it works`, `${a} told me to swap`, `what does ${a} hold`, `swap 1 eth for megachad tx from ${a}`, `into ${a}`, `tomorrow ${a}`]) {
    assert.deepEqual(extractEntities(message).recipients, [], message)
    assert.deepEqual(extractEntities(message).addresses, [A], message)
  }
  assert.deepEqual(extractEntities('swap 1 eth to alice.mega').recipients, ['alice.mega'])
})

test('amounts are exact decimals: exponents, wei and gwei without floats; unusable ones are set apart', () => {
  assert.deepEqual(extractEntities('swap 1e18 wei').amounts, [{ value: '1', token: 'ETH', raw: '1e18 wei' }])
  assert.equal(extractEntities('swap 0.5 gwei').amounts[0]!.value, '0.0000000005')
  assert.equal(extractEntities('buy 2.5e-2 eth').amounts[0]!.value, '0.025')
  for (const message of ['swap 1e320 gwei', 'swap 0.5 wei', `swap ${'9'.repeat(330)} gwei`, 'buy 1e16 mc', 'swap 0.0000000000000000001 eth']) {
    const entities = extractEntities(message)
    assert.deepEqual(entities.amounts, [], message)
    assert.equal(entities.invalidAmounts.length, 1, message)
  }
})

test('fuzz: no message makes extraction or classification throw; every amount is a bounded plain decimal', () => {
  const address = fc.uint8Array({ minLength: 20, maxLength: 20 }).map((bytes) => `0x${Buffer.from(bytes).toString('hex')}`)
  const number = fc.oneof(
    fc.bigInt({ min: 0n, max: 10n ** 400n }).map(String),
    fc.double().map(String),
    fc.tuple(fc.nat(), fc.integer({ min: -100_000, max: 100_000 })).map(([m, e]) => `${m}e${e}`),
    fc.tuple(fc.nat(), fc.nat({ max: 10 ** 9 })).map(([a, b]) => `${a}.${b}`),
    fc.constantFrom('Infinity', 'NaN', '-0', '1e', '.5', '1,000,000', '0,5', '1.2.3', '1e+308', '9'.repeat(400)),
  )
  const word = fc.constantFrom(
    'swap', 'buy', 'stake', 'burn', 'eth', 'wei', 'gwei', 'k', 'm', 'million', 'b', 'tokens', 'mc', 'mg', 'usdm', 'to', 'for', 'from', 'recipient:',
    'my', 'other', 'wallet', 'x', 'times', 'proposal', '#', 'half', 'an', 'alice.mega', ',', '.', '-', 'e', '$', 'on', 'base', 'op',
  )
  const part = fc.tuple(fc.oneof(word, number, address, fc.string({ maxLength: 8 })), fc.constantFrom(' ', '', ' ', ', '))
  const message = fc.array(part, { maxLength: 14 }).map((parts) => parts.map(([text, separator]) => text + separator).join(''))
  fc.assert(
    fc.property(fc.oneof(message, fc.string({ maxLength: 200 })), (text) => {
      const entities = extractEntities(text)
      for (const amount of entities.amounts) assert.match(amount.value, /^\d{1,15}(\.\d{1,18})?$/, `${text} → ${amount.value}`)
      if (entities.count !== undefined) assert.ok(Number.isInteger(entities.count) && entities.count > 1 && entities.count <= 1000)
      for (const who of entities.recipients) assert.ok(entities.parties.includes(who) || who.endsWith('.mega'), `${text}: ${who} is a party of the message`)
      classify(text, entities)
    }),
    { numRuns: Number(process.env.FUZZ_RUNS ?? 2000) },
  )
})
