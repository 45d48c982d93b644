import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { decodeEventLog, encodeFunctionData, getAddress } from 'viem'
import { useDefiDevnet, E18, DAY, type DefiDevnet } from './defi-support.ts'
import { buildStakingPlan, type StakingVenue } from '../../src/chain/builders/build-staking-plan.ts'
import { buildAddLiquidityPlan } from '../../src/chain/builders/build-pair-plans.ts'
import { readStaking } from '../../src/chain/reads/read-staking.ts'
import { readPair } from '../../src/chain/reads/read-pair.ts'
import { readNftBoost } from '../../src/chain/reads/read-nft-boost.ts'
import { moggerStakingAbi } from '../../src/chain/abis/mogger-staking.ts'
import { jesterStakingAbi } from '../../src/chain/abis/jester-staking.ts'
import { defiAccountAddresses, defiRoles } from '../../src/devnet/defi-accounts.ts'
import { mnemonicToAccount } from 'viem/accounts'

const d = useDefiDevnet()

/** Agents 7, 8, 9 get 1, 10 and 25 NFTs in the test: the three boost tiers. */
const tiers = [
  { index: 7, nfts: 1n, multiplierBps: 10_000n },
  { index: 8, nfts: 10n, multiplierBps: 10_750n },
  { index: 9, nfts: 25n, multiplierBps: 11_500n },
] as const

function venueContracts(venue: StakingVenue) {
  const c = d.devnet.info.contracts
  return venue === 'mogger' ? { staking: c.moggerStaking!, stakeToken: c.token } : { staking: c.jesterStaking!, stakeToken: c.pair! }
}

async function position(venue: StakingVenue, index: number) {
  const wallet = (await readStaking(d.chain, d.address(index))).wallet!
  return wallet[venue]
}

test('the seed accounts are the mnemonic accounts 10…28, and the seed left stakes by holders of 1, 10 and 25 NFTs on both venues', async () => {
  for (const [index, address] of Object.entries(defiAccountAddresses)) {
    assert.equal(address, mnemonicToAccount('test test test test test test test test test test test junk', { addressIndex: Number(index) }).address)
  }
  const stats = await readStaking(d.chain)
  assert.equal(stats.mogger.currentWeek, 4n, 'the chain has 30 days of history')
  assert.equal(stats.mogger.totalStaked, 3_000_000n * E18)
  assert.equal(stats.mogger.totalEffectiveStake, (1_000_000n * (10_000n + 10_750n + 11_500n) * E18) / 10_000n)
  assert.ok(stats.jester.totalStaked > 0n)
  assert.equal(stats.mogger.rewardRate, stats.mogger.weeklyEmission / 604_800n)
  // Both venues started about 30 days ago and run 225 weeks.
  const left = Number(stats.mogger.periodFinish - (await d.now()))
  assert.ok(Math.abs(left - (225 * 7 - 30) * DAY) < DAY, `period ends in ${left} s`)
  assert.ok(Math.abs(Number(stats.jester.periodFinish - stats.mogger.periodFinish)) < 60)
  assert.ok(stats.mogger.aprBps !== null && stats.mogger.aprBps > 0n)
  for (const [key, multiplierBps] of [['one', 10_000n], ['ten', 10_750n], ['twentyFive', 11_500n]] as const) {
    const wallet = (await readStaking(d.chain, defiAccountAddresses[defiRoles.stakers[key]])).wallet!
    assert.equal(wallet.mogger.multiplierBps, multiplierBps)
    assert.equal(wallet.mogger.effectiveStake, (wallet.mogger.staked * multiplierBps) / 10_000n)
    assert.ok(wallet.mogger.earned > 0n && wallet.jester.earned > 0n, 'rewards accrued over the seeded weeks')
  }
})

test('without an NFT: the builder refuses and both venues revert "Must hold at least 1 NFT"', async () => {
  const noNft = 6
  assert.equal((await readNftBoost(d.chain, d.address(noNft))).eligible, false)
  for (const venue of ['mogger', 'jester'] as const) {
    const refused = buildStakingPlan({ action: 'stake', venue, ...venueContracts(venue), amount: E18, nftCount: 0n })
    assert.equal(!refused.ok && refused.reason, 'nft_required')
    // The same stake without the builder's check: the venue refuses it on chain.
    const plan = buildStakingPlan({ action: 'stake', venue, ...venueContracts(venue), amount: E18, allowance: E18 })
    assert.ok(plan.ok)
    assert.equal(await d.revertOf(noNft, plan.plan.at(-1)!), 'Must hold at least 1 NFT')
  }
})

test('stake on both venues with 1, 10 and 25 NFTs: approve + stake plans, boosts 1.000x / 1.075x / 1.150x, rewards in that ratio', async () => {
  const c = d.devnet.info.contracts
  for (const tier of tiers) {
    const me = d.address(tier.index)
    await d.mintNfts(me, tier.nfts)
    assert.equal((await readNftBoost(d.chain, me)).multiplierBps, tier.multiplierBps)
    await d.fund(c.token, me, 200_000n * E18)
    await d.fund(c.secondToken, me, 10_000n * E18)
    // Liquidity for the jester venue, through the add-liquidity plan.
    const pair = await readPair(d.chain, me)
    const lpBefore = pair.lpBalance!
    await d.sendPlan(tier.index, buildAddLiquidityPlan({ ...pair, amountA: 100_000n * E18, amountB: 10_000n * E18, recipient: me, allowanceA: pair.allowanceA, allowanceB: pair.allowanceB }))
    const lp = (await readPair(d.chain, me)).lpBalance! - lpBefore
    assert.ok(lp > 0n)
    for (const [venue, amount] of [['mogger', 100_000n * E18], ['jester', lp]] as const) {
      const before = await position(venue, tier.index)
      const plan = buildStakingPlan({ action: 'stake', venue, ...venueContracts(venue), amount, allowance: before.allowance, nftCount: tier.nfts })
      assert.ok(plan.ok)
      assert.deepEqual(plan.plan.map((s) => s.functionName), ['approve', 'stake'], 'no allowance yet: approve first')
      await d.sendPlan(tier.index, plan)
      const after = await position(venue, tier.index)
      assert.equal(after.staked, amount)
      assert.equal(after.multiplierBps, tier.multiplierBps)
      assert.equal(after.effectiveStake, (amount * tier.multiplierBps) / 10_000n)
    }
  }
  // Over one day with the stakes fixed, rewards grow in proportion to the effective stakes.
  const earned = async () => Promise.all(tiers.map(async (t) => [await position('mogger', t.index), await position('jester', t.index)] as const))
  const start = await earned()
  await d.travel(DAY)
  const end = await earned()
  for (const v of [0, 1] as const) {
    const gain = tiers.map((_, i) => end[i]![v].earned - start[i]![v].earned)
    const perUnit = gain.map((g, i) => (g * 10n ** 12n) / end[i]![v].effectiveStake)
    for (const p of perUnit) assert.ok(p - perUnit[0]! <= 1n && perUnit[0]! - p <= 1n, `venue ${v}: reward per effective unit ${perUnit}`)
    // Mogger stakes are equal, so the gains themselves stand in the boost ratio.
    if (v === 0) {
      assert.ok(gain[0]! > 0n)
      assert.equal((gain[1]! * 10_000n + gain[0]! / 2n) / gain[0]!, 10_750n)
      assert.equal((gain[2]! * 10_000n + gain[0]! / 2n) / gain[0]!, 11_500n)
    }
  }
})

test('claim pays the earned MG and unstake returns the stake, on both venues for each tier; refusals revert with their reasons', async () => {
  const c = d.devnet.info.contracts
  for (const venue of ['mogger', 'jester'] as const) {
    const { staking, stakeToken } = venueContracts(venue)
    // Nothing staked, nothing to claim: "No rewards".
    const none = buildStakingPlan({ action: 'claim', venue, ...venueContracts(venue) })
    assert.ok(none.ok)
    assert.equal(await d.revertOf(6, none.plan[0]!), 'No rewards')
    for (const tier of tiers) {
      const me = d.address(tier.index)
      const before = await position(venue, tier.index)
      const mgBefore = await d.balance(c.secondToken, me)
      const [receipt] = await d.sendPlan(tier.index, buildStakingPlan({ action: 'claim', venue, ...venueContracts(venue) }))
      const log = receipt!.logs.find((l) => getAddress(l.address) === staking)!
      const event = decodeEventLog({ abi: venue === 'mogger' ? moggerStakingAbi : jesterStakingAbi, data: log.data, topics: log.topics })
      assert.equal(event.eventName, 'RewardsClaimed')
      const paid = (event.args as { reward: bigint }).reward
      assert.ok(paid >= before.earned && paid > 0n, 'at least what was earned a block earlier')
      assert.equal(await d.balance(c.secondToken, me), mgBefore + paid)
      assert.equal((await position(venue, tier.index)).earned, 0n)

      const tokensBefore = await d.balance(stakeToken, me)
      const tooMuch = buildStakingPlan({ action: 'unstake', venue, ...venueContracts(venue), amount: before.staked + 1n })
      assert.ok(tooMuch.ok)
      assert.equal(await d.revertOf(tier.index, tooMuch.plan[0]!), 'Invalid amount')
      await d.sendPlan(tier.index, buildStakingPlan({ action: 'unstake', venue, ...venueContracts(venue), amount: before.staked, staked: before.staked }))
      assert.equal(await d.balance(stakeToken, me), tokensBefore + before.staked)
      const after = await position(venue, tier.index)
      assert.deepEqual([after.staked, after.effectiveStake], [0n, 0n])
    }
  }
})

test('an unstake estimated in the second of a claim still succeeds when mined in the next second', async () => {
  // The claim leaves the reward slot at zero; an unstake mined a second later writes the reward
  // accrued since into it (about 29k gas more than estimated). The devnet's estimate margin
  // (src/devnet/edr-provider.ts) must cover it: viem and the test wallets send the estimate.
  const staker = defiRoles.stakers.one
  const { staking } = venueContracts('mogger')
  const call = (functionName: 'claimRewards' | 'unstake') =>
    ({ to: staking, data: functionName === 'claimRewards' ? encodeFunctionData({ abi: moggerStakingAbi, functionName }) : encodeFunctionData({ abi: moggerStakingAbi, functionName, args: [E18] }) }) as const
  const startOfNextSecond = () => new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 10))
  // Three rounds: from the second on, the unstake before the claim has left its slots written,
  // and the estimate taken in the claim's second is short by the whole reward write.
  for (let attempt = 0, rounds = 0; rounds < 3; attempt++) {
    await startOfNextSecond()
    const claimed = await d.client.waitForTransactionReceipt({ hash: await d.wallet(staker).sendTransaction({ ...call('claimRewards'), gas: 1_000_000n }) })
    assert.equal(claimed.status, 'success')
    const estimate = () => d.client.estimateGas({ account: d.account(staker), ...call('unstake') })
    const gas = await estimate()
    await startOfNextSecond()
    // Taken in the claim's second, the estimate is lower than one taken now: else try again.
    if (gas >= (await estimate())) {
      assert.ok(attempt < rounds + 5, 'could not estimate within the second of the claim')
      continue
    }
    const hash = await d.wallet(staker).sendTransaction({ ...call('unstake'), gas })
    assert.equal((await d.client.waitForTransactionReceipt({ hash })).status, 'success', `round ${rounds + 1}: the unstake ran out of its estimated ${gas} gas`)
    rounds++
  }
})
