import { test } from 'node:test'
import assert from 'node:assert/strict'
import { decodeFunctionData, erc20Abi, getAddress } from 'viem'
import { buildStakingPlan } from './build-staking-plan.ts'
import { moggerStakingAbi } from '../abis/mogger-staking.ts'
import { jesterStakingAbi } from '../abis/jester-staking.ts'

const staking = getAddress('0x1111111111111111111111111111111111111111')
const stakeToken = getAddress('0x2222222222222222222222222222222222222222')
const base = { staking, stakeToken }

test('stake on mogger: approve exactly the amount when the allowance is short or unknown, then stake', () => {
  for (const allowance of [undefined, 99n]) {
    const result = buildStakingPlan({ ...base, action: 'stake', venue: 'mogger', amount: 100n, allowance })
    assert.ok(result.ok)
    assert.deepEqual(result.plan.map((s) => [s.to, s.functionName, s.args, s.value]), [
      [stakeToken, 'approve', [staking, '100'], '0'],
      [staking, 'stake', ['100'], '0'],
    ])
    assert.deepEqual(decodeFunctionData({ abi: erc20Abi, data: result.plan[0]!.data }).args, [staking, 100n])
    assert.deepEqual(decodeFunctionData({ abi: moggerStakingAbi, data: result.plan[1]!.data }).args, [100n])
  }
  const enough = buildStakingPlan({ ...base, action: 'stake', venue: 'mogger', amount: 100n, allowance: 100n })
  assert.ok(enough.ok)
  assert.deepEqual(enough.plan.map((s) => s.functionName), ['stake'])
})

test('jester calls carry the pool id; unstake and claim are one call', () => {
  const stake = buildStakingPlan({ ...base, action: 'stake', venue: 'jester', amount: 5n, allowance: 10n, pid: 0n })
  assert.ok(stake.ok)
  assert.deepEqual(decodeFunctionData({ abi: jesterStakingAbi, data: stake.plan[0]!.data }), { functionName: 'stake', args: [0n, 5n] })
  const unstake = buildStakingPlan({ ...base, action: 'unstake', venue: 'jester', amount: 5n })
  assert.ok(unstake.ok)
  assert.deepEqual(unstake.plan.map((s) => [s.functionName, s.args]), [['unstake', ['0', '5']]])
  const claimJester = buildStakingPlan({ ...base, action: 'claim', venue: 'jester' })
  const claimMogger = buildStakingPlan({ ...base, action: 'claim', venue: 'mogger' })
  assert.ok(claimJester.ok && claimMogger.ok)
  assert.deepEqual(claimJester.plan.map((s) => [s.functionName, s.args]), [['claimRewards', ['0']]])
  assert.deepEqual(claimMogger.plan.map((s) => [s.functionName, s.args, s.data]), [['claimRewards', [], '0x372500ab']])
})

test('refusals: no amount, no NFT, unstaking more than staked', () => {
  assert.deepEqual(buildStakingPlan({ ...base, action: 'stake', venue: 'mogger' }), { ok: false, reason: 'invalid_amount', message: 'stake needs an amount above zero.' })
  assert.equal(buildStakingPlan({ ...base, action: 'unstake', venue: 'mogger', amount: 0n }).ok, false)
  const noNft = buildStakingPlan({ ...base, action: 'stake', venue: 'jester', amount: 1n, nftCount: 0n })
  assert.equal(!noNft.ok && noNft.reason, 'nft_required')
  const tooMuch = buildStakingPlan({ ...base, action: 'unstake', venue: 'mogger', amount: 2n, staked: 1n })
  assert.equal(!tooMuch.ok && tooMuch.reason, 'insufficient_stake')
})

test('while the protocol is paused: stake is refused, unstake and claim are not', () => {
  const base = { venue: 'mogger' as const, staking: getAddress('0x1111111111111111111111111111111111111111'), stakeToken: getAddress('0x2222222222222222222222222222222222222222'), nftCount: 1n, staked: 10n, paused: true }
  const reason = (r: { ok: boolean; reason?: string }) => (r.ok ? 'ok' : r.reason)
  assert.equal(reason(buildStakingPlan({ ...base, action: 'stake', amount: 5n })), 'paused')
  assert.equal(reason(buildStakingPlan({ ...base, action: 'unstake', amount: 5n })), 'ok')
  assert.equal(reason(buildStakingPlan({ ...base, action: 'claim' })), 'ok')
})

test('a claim of nothing is refused when the wallet is known; unknown, it is planned', () => {
  const base = { venue: 'mogger' as const, staking: getAddress('0x1111111111111111111111111111111111111111'), stakeToken: getAddress('0x2222222222222222222222222222222222222222'), action: 'claim' as const }
  const reason = (r: { ok: boolean; reason?: string }) => (r.ok ? 'ok' : r.reason)
  assert.equal(reason(buildStakingPlan({ ...base, earned: 0n })), 'nothing_to_claim')
  assert.equal(reason(buildStakingPlan({ ...base, earned: 1n })), 'ok')
  assert.equal(reason(buildStakingPlan(base)), 'ok')
})
