import { test } from 'node:test'
import assert from 'node:assert/strict'
import { encodeAbiParameters, encodeEventTopics, parseAbi, getAddress } from 'viem'
import { verifyBurns, type BurnCheckInput, type BurnReceipt } from './verify-burns.ts'

const abi = parseAbi([
  'event Transfer(address indexed from, address indexed to, uint256 value)',
  'event ReferralBurn(address indexed burner, address indexed referrer, uint256 burnedAmount, uint256 trenAmount, uint256 referralReward)',
])
const token = getAddress('0x1111111111111111111111111111111111111111')
const fund = getAddress('0x2222222222222222222222222222222222222222')
const burner = getAddress('0x3333333333333333333333333333333333333333')
const agent = getAddress('0x4444444444444444444444444444444444444444')
const referral = getAddress('0x5555555555555555555555555555555555555555')
const dead = getAddress('0x000000000000000000000000000000000000dEaD')
const E18 = 10n ** 18n

const transfer = (from: `0x${string}`, to: `0x${string}`, tokens: bigint, address = token) => ({
  address,
  topics: encodeEventTopics({ abi, eventName: 'Transfer', args: { from, to } }) as [`0x${string}`, ...`0x${string}`[]],
  data: encodeAbiParameters([{ type: 'uint256' }], [tokens * E18]),
})

const receipt = (hash: string, logs: BurnReceipt['logs'], overrides: Partial<BurnReceipt> = {}): BurnReceipt => ({
  transactionHash: hash.padEnd(66, '0') as `0x${string}`,
  status: 'success',
  blockNumber: 100n,
  logs,
  ...overrides,
})

const input = (overrides: Partial<BurnCheckInput>): BurnCheckInput => ({
  burnReceipt: receipt('0xb1', [transfer(burner, dead, 112_500n)]),
  devReceipt: receipt('0xd1', [transfer(burner, fund, 112_500n)]),
  burner,
  token,
  fundWallet: fund,
  referralContract: referral,
  latestBlock: 105n,
  blockTimestamps: new Map([[100n, 1_000_000n]]),
  confirmations: 1,
  maxAgeSeconds: 3600,
  nowSeconds: 1_000_100n,
  ...overrides,
})

test('two plain transfers of 112,500 from the burner verify', () => {
  const result = verifyBurns(input({}))
  assert.equal(result.ok, true)
})

test('a later matching log is found even when an earlier one does not match', () => {
  const burnReceipt = receipt('0xb1', [transfer(agent, dead, 112_500n), transfer(burner, dead, 1n), transfer(burner, dead, 112_500n)])
  assert.equal(verifyBurns(input({ burnReceipt })).ok, true)
})

test('refusals say what was wrong', () => {
  const cases: Array<[string, Partial<BurnCheckInput>, RegExp]> = [
    ['too small a burn', { burnReceipt: receipt('0xb1', [transfer(burner, dead, 112_499n)]) }, /expected at least 112,500/],
    ['burn from someone else', { burnReceipt: receipt('0xb1', [transfer(agent, dead, 112_500n)]) }, /moves 0 tokens/],
    ['another token', { burnReceipt: receipt('0xb1', [transfer(burner, dead, 112_500n, agent)]) }, /moves 0 tokens/],
    ['fund leg to the wrong wallet', { devReceipt: receipt('0xd1', [transfer(burner, agent, 112_500n)]) }, /fund wallet/],
    ['reverted', { devReceipt: receipt('0xd1', [transfer(burner, fund, 112_500n)], { status: 'reverted' }) }, /reverted/],
    ['not deep enough', { confirmations: 10 }, /confirmation/],
    ['too old', { nowSeconds: 1_000_000n + 3601n }, /older than/],
  ]
  for (const [name, overrides, pattern] of cases) {
    const result = verifyBurns(input(overrides))
    assert.equal(result.ok, false, name)
    assert.match((result as { reason: string }).reason, pattern, name)
  }
})

test('one transaction carrying both legs verifies as burn and dev', () => {
  const both = receipt('0xab', [transfer(burner, dead, 112_500n), transfer(burner, fund, 112_500n)])
  assert.equal(verifyBurns(input({ burnReceipt: both, devReceipt: both })).ok, true)
})

test('a referral burn is valid with the fund share reduced by the agent reward', () => {
  const referralLog = {
    address: referral,
    topics: encodeEventTopics({ abi, eventName: 'ReferralBurn', args: { burner, referrer: agent } }) as [`0x${string}`, ...`0x${string}`[]],
    data: encodeAbiParameters([{ type: 'uint256' }, { type: 'uint256' }, { type: 'uint256' }], [112_500n * E18, 101_250n * E18, 11_250n * E18]),
  }
  const tx = receipt('0xrf', [transfer(burner, dead, 112_500n), transfer(burner, fund, 101_250n), transfer(burner, agent, 11_250n), referralLog])
  const result = verifyBurns(input({ burnReceipt: tx, devReceipt: tx }))
  assert.deepEqual(result, { ok: true, burned: 112_500n * E18, funded: 101_250n * E18, referrer: agent, referralReward: 11_250n * E18 })

  // The same short fund transfer without the referral contract's event is not enough.
  const fake = receipt('0xfk', [transfer(burner, dead, 112_500n), transfer(burner, fund, 101_250n), transfer(burner, agent, 11_250n)])
  assert.equal(verifyBurns(input({ burnReceipt: fake, devReceipt: fake })).ok, false)
})
