import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { encodeFunctionData, erc20Abi, getAddress } from 'viem'
import { defiDevnet, E18, DAY, type DefiDevnet } from '../devnet/defi-support.ts'
import { useApp } from '../support/harness.ts'
import { jesterStakingAbi } from '../../src/chain/abis/jester-staking.ts'
import { circuitBreakerAbi } from '../../src/chain/abis/circuit-breaker.ts'
import { rankingAbi } from '../../src/chain/abis/ranking.ts'
import { planStep } from '../../src/chain/builders/plan.ts'
import { defiAccountAddresses, defiRoles } from '../../src/devnet/defi-accounts.ts'
import { BURN_ADDRESS } from '../../src/chain/constants.ts'

/**
 * The DeFi endpoints on one devnet and one app: every plan is fetched over HTTP and sent
 * transaction by transaction from the devnet accounts, as a wallet would; the effect is then
 * read on chain. Tests run in order and share state (the veto and the time travel come late,
 * the breaker pause last).
 */
let d: DefiDevnet
const app = useApp({ env: { INDEXER_POLL_MS: '600000' } })
/** (tx hash, kind) of every DeFi event the tests produced, for the activity feed. */
const produced: { txHash: string; kind: string }[] = []

before(() => {
  d = defiDevnet(app.devnet)
})

async function get(url: string) {
  const r = await app.http.inject({ method: 'GET', url })
  return { status: r.statusCode, body: r.json() as any }
}
async function post(url: string, body: unknown) {
  const r = await app.http.inject({ method: 'POST', url, payload: body as object, headers: { 'content-type': 'application/json' } })
  return { status: r.statusCode, body: r.json() as any }
}
async function ok(url: string) {
  const r = await get(url)
  assert.equal(r.status, 200, `${url}: ${JSON.stringify(r.body)}`)
  return r.body
}
async function refused(url: string, status: number, code: string, body?: unknown) {
  const r = body === undefined ? await get(url) : await post(url, body)
  assert.equal(r.status, status, `${url}: ${JSON.stringify(r.body)}`)
  assert.equal(r.body.error.code, code, `${url}: ${JSON.stringify(r.body)}`)
  return r.body.error
}
/** Sends every step of an executionPlan from account i; returns the receipts. */
async function sendPlan(i: number, body: { chainId: number; executionPlan: { to: `0x${string}`; data: `0x${string}`; value: string }[] }, kind?: string) {
  assert.equal(body.chainId, 4326)
  const receipts = []
  for (const step of body.executionPlan) receipts.push(await d.send(i, step))
  if (kind) produced.push({ txHash: receipts.at(-1)!.transactionHash.toLowerCase(), kind })
  return receipts
}

const tiers = [
  { index: 7, nfts: 1n, multiplierBps: 10_000 },
  { index: 8, nfts: 10n, multiplierBps: 10_750 },
  { index: 9, nfts: 25n, multiplierBps: 11_500 },
] as const

test('reads: staking stats, emission, NFT tiers, safety, proposals and eligibility', async () => {
  const s = await ok(`/api/defi/staking?address=${defiAccountAddresses[defiRoles.stakers.ten].toLowerCase()}`)
  assert.equal(s.chainId, 4326)
  assert.equal(s.mogger.totalStaked, (3_000_000n * E18).toString())
  assert.equal(s.wallet.address, defiAccountAddresses[defiRoles.stakers.ten], 'EIP-55 out')
  assert.equal(s.wallet.boostMultiplierBps, 10_750)
  assert.equal(s.wallet.mogger.multiplierBps, 10_750)
  assert.ok(BigInt(s.wallet.mogger.earned) > 0n)
  assert.equal((await ok('/api/defi/staking')).wallet, undefined)
  const e = await ok('/api/defi/emission')
  assert.deepEqual(e.split, { moggerBps: 4500, jesterBps: 4000, treasuryBps: 1500, moggerPct: 45, jesterPct: 40, treasuryPct: 15 })
  assert.equal(e.currentWeek, 4)
  assert.equal(e.projected.length, 4)
  const nft = await ok(`/api/defi/nft?address=${defiAccountAddresses[defiRoles.stakers.twentyFive]}`)
  assert.deepEqual([nft.nftCount, nft.boostMultiplierBps, nft.eligible, nft.nextTierAt], [25, 11_500, true, null])
  const none = await ok(`/api/defi/nft?address=${d.address(6)}`)
  assert.deepEqual([none.nftCount, none.boostMultiplierBps, none.eligible, none.nextTierAt], [0, 0, false, 1])
  assert.deepEqual(none.recent, [], 'a wallet that looksmaxxed nothing lists no portrait')
  const safety = await ok('/api/defi/safety')
  assert.deepEqual([safety.circuitBreaker.paused, safety.writesSafe, safety.vetoCouncil.vetoThreshold, safety.vetoCouncil.seatsFilled], [false, true, 11, 18])
  const list = await ok('/api/defi/governance/proposals')
  assert.deepEqual(list.proposals.map((p: any) => [p.id, p.state]), [[8, 'Pending'], [7, 'Active'], [6, 'Queued'], [5, 'Vetoed'], [4, 'Succeeded'], [3, 'Defeated'], [2, 'Executed'], [1, 'Expired']])
  assert.equal((await ok('/api/defi/governance/proposals?limit=2')).proposals.length, 2)
  const one = await ok(`/api/defi/governance/proposals/2?voter=${defiAccountAddresses[defiRoles.proposer]}`)
  assert.equal(one.proposal.state, 'Executed')
  assert.ok(one.proposal.actions.length >= 1)
  assert.equal(one.proposal.receipt.voter, defiAccountAddresses[defiRoles.proposer])
  await refused('/api/defi/governance/proposals/99', 404, 'NOT_FOUND')
  const elig = await ok(`/api/defi/governance/propose-tx?proposer=${defiAccountAddresses[defiRoles.proposer]}`)
  assert.deepEqual([elig.canPropose, elig.currentWeek, elig.top3.length], [true, 4, 3])
  // Last week's top 3 may propose too: listed beside this week's, as the ranking has them.
  const lastWeek = await d.client.readContract({ address: d.devnet.info.contracts.ranking!, abi: rankingAbi, functionName: 'getWeekTop3', args: [3n] })
  assert.deepEqual(elig.lastWeekTop3.map((t: any) => [t.address, t.amount]), lastWeek[0].map((a, i) => [a, lastWeek[1][i]!.toString()]).filter(([a]) => a !== '0x0000000000000000000000000000000000000000'))
  assert.equal((await ok(`/api/defi/governance/propose-tx?proposer=${d.address(6)}`)).canPropose, false)
})

test('the agent index lists the builders under txBuilders and the reads under reads; OpenAPI documents each with its errors', async () => {
  const index = await ok('/api/agent')
  for (const id of ['build_staking_tx', 'build_amm_swap_tx', 'build_add_liquidity_tx', 'build_vote_tx', 'build_queue_tx', 'build_execute_tx', 'build_propose_tx', 'build_veto_tx']) assert.ok(index.endpoints.txBuilders[id], id)
  for (const id of ['get_defi_staking', 'get_amm_quote', 'list_proposals', 'get_proposal', 'get_propose_eligibility', 'get_emission', 'get_defi_nft', 'get_safety', 'get_activity']) assert.ok(index.endpoints.reads[id], id)
  const openapi = await ok('/.well-known/openapi.json')
  const nft = openapi.paths['/api/defi/nft'].get
  assert.equal(nft.operationId, 'get_defi_nft')
  assert.ok(nft.responses['200'] && nft.responses['400'])
  const propose = openapi.paths['/api/defi/governance/propose-tx'].post
  assert.ok(propose.requestBody && propose.responses['400'])
})

test('every 400 of the DeFi rows: status and error code', async () => {
  const a = d.address(7)
  await refused('/api/defi/nft?address=0x123', 400, 'INVALID_ADDRESS')
  await refused('/api/defi/nft', 400, 'INVALID_ADDRESS')
  await refused('/api/defi/staking?address=nope', 400, 'INVALID_ADDRESS')
  await refused('/api/defi/staking/tx?action=burn&venue=mogger&amount=1', 400, 'INVALID_INPUT')
  await refused('/api/defi/staking/tx?action=stake&venue=pool&amount=1', 400, 'INVALID_INPUT')
  await refused('/api/defi/staking/tx?action=stake&venue=mogger', 400, 'INVALID_AMOUNT')
  await refused('/api/defi/staking/tx?action=stake&venue=mogger&amount=abc', 400, 'INVALID_AMOUNT')
  await refused('/api/defi/staking/tx?action=stake&venue=mogger&amount=0', 400, 'INVALID_AMOUNT')
  // Beyond uint256 (and any supply): refused as input, never a 500 from the ABI encoder.
  const huge = `1${'0'.repeat(80)}`
  await refused(`/api/defi/staking/tx?action=stake&venue=mogger&amount=${huge}`, 400, 'INVALID_AMOUNT')
  await refused(`/api/defi/staking/tx?action=unstake&venue=jester&amount=${huge}`, 400, 'INVALID_AMOUNT')
  await refused(`/api/defi/amm/quote?from=MC&amount=${huge}`, 400, 'INVALID_AMOUNT')
  // Dust the pair would pay nothing for: refused by the quote as by swap-tx (not quoted with a link that 400s).
  assert.equal((await refused('/api/defi/amm/quote?from=MC&amount=0.000000000000000001', 400, 'INVALID_AMOUNT')).details.reason, 'zero_output')
  await refused(`/api/defi/amm/swap-tx?from=MC&amount=${huge}&recipient=${a}`, 400, 'INVALID_AMOUNT')
  await refused(`/api/defi/amm/add-liquidity-tx?amountMC=${huge}&amountMG=1&recipient=${a}`, 400, 'INVALID_AMOUNT')
  await refused('/api/defi/amm/quote?from=ETH&amount=1', 400, 'INVALID_INPUT')
  await refused('/api/defi/amm/quote?from=MC', 400, 'INVALID_INPUT')
  await refused(`/api/defi/amm/swap-tx?from=MC&amount=1`, 400, 'INVALID_ADDRESS')
  await refused(`/api/defi/amm/swap-tx?from=MC&amount=-1&recipient=${a}`, 400, 'INVALID_AMOUNT')
  await refused(`/api/defi/amm/swap-tx?from=MC&amount=1&recipient=${a}&slippageBps=10000`, 400, 'INVALID_INPUT')
  await refused(`/api/defi/amm/swap-tx?from=MC&amount=1&recipient=${a}&slippageBps=1.5`, 400, 'INVALID_INPUT')
  await refused(`/api/defi/amm/add-liquidity-tx?amountMC=1&recipient=${a}`, 400, 'INVALID_AMOUNT')
  await refused(`/api/defi/amm/add-liquidity-tx?amountMC=1&amountMG=1&recipient=0xabc`, 400, 'INVALID_ADDRESS')
  await refused('/api/defi/governance/proposals?limit=0', 400, 'INVALID_INPUT')
  await refused('/api/defi/governance/proposals?limit=x', 400, 'INVALID_INPUT')
  await refused('/api/defi/governance/proposals/abc', 400, 'INVALID_INPUT')
  await refused('/api/defi/governance/vote-tx?proposalId=7&support=maybe', 400, 'INVALID_INPUT')
  await refused('/api/defi/governance/vote-tx?support=for', 400, 'INVALID_INPUT')
  let err = await refused('/api/defi/governance/vote-tx?proposalId=8&support=for', 400, 'INVALID_INPUT')
  assert.equal(err.details.currentState, 'Pending')
  err = await refused('/api/defi/governance/queue-tx?proposalId=7', 400, 'INVALID_INPUT')
  assert.equal(err.details.currentState, 'Active')
  assert.match(err.message, /Active/)
  err = await refused('/api/defi/governance/execute-tx?proposalId=4', 400, 'INVALID_INPUT')
  assert.equal(err.details.currentState, 'Succeeded')
  await refused('/api/defi/governance/queue-tx?proposalId=0', 400, 'INVALID_INPUT')
  await refused('/api/defi/governance/propose-tx?proposer=0x1', 400, 'INVALID_ADDRESS')
  err = await refused(`/api/defi/governance/veto-tx?proposalId=7&support=veto&voter=${a}`, 400, 'INVALID_INPUT')
  assert.equal(err.details.currentState, 'Active')
  await refused(`/api/defi/governance/veto-tx?proposalId=6&support=maybe&voter=${a}`, 400, 'INVALID_INPUT')
  await refused('/api/defi/governance/veto-tx?proposalId=6&support=veto&voter=0x1', 400, 'INVALID_ADDRESS')
  await refused('/api/defi/activity?limit=0', 400, 'INVALID_INPUT')
  await refused('/api/defi/activity?limit=201', 400, 'INVALID_INPUT')
  await refused('/api/defi/activity?blocks=99', 400, 'INVALID_INPUT')
  await refused('/api/defi/activity?blocks=50001', 400, 'INVALID_INPUT')
  // POST propose-tx: array lengths, addresses, wei strings, calldata hex.
  const c = d.devnet.info.contracts
  const good = { targets: [c.jesterStaking], values: ['0'], calldatas: ['0x'], description: 'x' }
  const url = '/api/defi/governance/propose-tx'
  await refused(url, 400, 'INVALID_INPUT', { ...good, values: ['0', '1'] })
  await refused(url, 400, 'INVALID_INPUT', { ...good, targets: [], values: [], calldatas: [] })
  await refused(url, 400, 'INVALID_ADDRESS', { ...good, targets: ['0x1234'] })
  await refused(url, 400, 'INVALID_ADDRESS', { ...good, proposer: 'bob' })
  await refused(url, 400, 'INVALID_AMOUNT', { ...good, values: ['1.5'] })
  await refused(url, 400, 'INVALID_AMOUNT', { ...good, values: ['-1'] })
  await refused(url, 400, 'INVALID_INPUT', { ...good, calldatas: ['0xzz'] })
  await refused(url, 400, 'INVALID_INPUT', { ...good, calldatas: ['0x123'] })
  await refused(url, 400, 'INVALID_INPUT', { ...good, description: '' })
  await refused(url, 400, 'INVALID_INPUT', { targets: good.targets, values: good.values, calldatas: good.calldatas })
  // A field of the wrong type says only that (not also a length check run on the string).
  const wrongType = await refused(url, 400, 'INVALID_INPUT', { ...good, targets: c.jesterStaking })
  assert.deepEqual(wrongType.details.issues, [{ path: 'targets', message: 'Invalid input: expected array, received string' }])
})

test('add liquidity, then stake, claim and unstake on both venues with 1, 10 and 25 NFTs; no NFT refused', async () => {
  const c = d.devnet.info.contracts
  // No NFT: refused with the reason, on both venues.
  for (const venue of ['mogger', 'jester']) {
    const err = await refused(`/api/defi/staking/tx?action=stake&venue=${venue}&amount=1&address=${d.address(6)}`, 400, 'INSUFFICIENT_BALANCE')
    assert.equal(err.details.reason, 'nft_required')
  }
  // Without an address the stake plan always approves first.
  assert.deepEqual((await ok('/api/defi/staking/tx?action=stake&venue=mogger&amount=5')).executionPlan.map((s: any) => s.functionName), ['approve', 'stake'])
  const lpOf = (who: `0x${string}`) => d.balance(c.pair!, who)
  for (const tier of tiers) {
    const me = d.address(tier.index)
    await d.mintNfts(me, tier.nfts)
    await d.fund(c.token, me, 200_000n * E18)
    await d.fund(c.secondToken, me, 10_000n * E18)
    const lpBefore = await lpOf(me)
    const add = await ok(`/api/defi/amm/add-liquidity-tx?amountMC=100000&amountMG=10000&recipient=${me}&address=${me}`)
    assert.deepEqual(add.executionPlan.map((s: any) => s.functionName), ['approve', 'approve', 'addLiquidity'])
    await sendPlan(tier.index, add)
    const lp = (await lpOf(me)) - lpBefore
    assert.ok(lp > 0n, 'LP minted to the recipient')
    for (const [venue, amount] of [['mogger', 100_000n * E18], ['jester', lp]] as const) {
      const plan = await ok(`/api/defi/staking/tx?action=stake&venue=${venue}&amount=${Number(amount) / 1e18 === Number(amount / E18) && amount % E18 === 0n ? (amount / E18).toString() : formatWei(amount)}&address=${me}`)
      assert.deepEqual(plan.executionPlan.map((s: any) => s.functionName), ['approve', 'stake'])
      assert.equal(plan.boostMultiplierBps, tier.multiplierBps)
      await sendPlan(tier.index, plan, 'stake')
      const pos = (await ok(`/api/defi/staking?address=${me}`)).wallet[venue]
      assert.equal(pos.staked, amount.toString())
      assert.equal(pos.multiplierBps, tier.multiplierBps, 'boost applied')
      assert.equal(pos.effectiveStake, ((amount * BigInt(tier.multiplierBps)) / 10_000n).toString())
    }
  }
  // With the allowance already given, a second stake is one call (the tier staked all its MC: one more, or the
  // simulation refuses the plan).
  await d.fund(c.token, d.address(7), E18)
  const again = await ok(`/api/defi/staking/tx?action=stake&venue=mogger&amount=1&address=${d.address(7)}`)
  assert.deepEqual(again.executionPlan.map((s: any) => s.functionName), ['approve', 'stake'], 'exact approvals were used up')
  await d.travel(60)
  for (const tier of tiers) {
    const me = d.address(tier.index)
    for (const venue of ['mogger', 'jester'] as const) {
      const before = (await ok(`/api/defi/staking?address=${me}`)).wallet[venue]
      assert.ok(BigInt(before.earned) > 0n)
      const mgBefore = await d.balance(c.secondToken, me)
      const claim = await ok(`/api/defi/staking/tx?action=claim&venue=${venue}&address=${me}`)
      assert.deepEqual(claim.executionPlan.map((s: any) => s.functionName), ['claimRewards'])
      await sendPlan(tier.index, claim, 'claim')
      assert.ok((await d.balance(c.secondToken, me)) - mgBefore >= BigInt(before.earned), 'the earned MG was paid')
      const stakeToken = venue === 'mogger' ? c.token : c.pair!
      const tokensBefore = await d.balance(stakeToken, me)
      const half = BigInt(before.staked) / 2n
      const tooMuch = await refused(`/api/defi/staking/tx?action=unstake&venue=${venue}&amount=${formatWei(BigInt(before.staked) + E18)}&address=${me}`, 400, 'INSUFFICIENT_BALANCE')
      assert.equal(tooMuch.details.reason, 'insufficient_stake')
      const unstake = await ok(`/api/defi/staking/tx?action=unstake&venue=${venue}&amount=${formatWei(half)}&address=${me}`)
      assert.deepEqual(unstake.executionPlan.map((s: any) => s.functionName), ['unstake'])
      await sendPlan(tier.index, unstake, 'unstake')
      assert.equal(await d.balance(stakeToken, me), tokensBefore + half)
      const after = (await ok(`/api/defi/staking?address=${me}`)).wallet[venue]
      assert.equal(after.staked, (BigInt(before.staked) - half).toString())
      assert.equal(after.multiplierBps, tier.multiplierBps)
    }
  }
})

function formatWei(v: bigint): string {
  const whole = v / E18
  const frac = (v % E18).toString().padStart(18, '0').replace(/0+$/, '')
  return frac ? `${whole}.${frac}` : whole.toString()
}

test('swap each way: output ≥ minOut, the input taken exactly once; quote with price impact', async () => {
  const c = d.devnet.info.contracts
  const me = d.address(7)
  await d.fund(c.token, me, 10_000n * E18)
  await d.fund(c.secondToken, me, 10_000n * E18)
  const spot = await ok('/api/defi/amm/quote')
  assert.equal(spot.quote, undefined)
  assert.ok(BigInt(spot.reserves.MC) > 0n && BigInt(spot.reserves.MG) > 0n)
  for (const [from, tokenIn, tokenOut] of [['MC', c.token, c.secondToken], ['MG', c.secondToken, c.token]] as const) {
    const quote = await ok(`/api/defi/amm/quote?from=${from}&amount=1000`)
    assert.ok(quote.quote.priceImpactBps >= 0)
    const body = await ok(`/api/defi/amm/swap-tx?from=${from}&amount=1000&recipient=${me}`)
    assert.deepEqual(body.executionPlan.map((s: any) => s.functionName), ['transfer', 'swap'])
    assert.equal(body.slippageBps, 200)
    assert.equal(body.expectedOut, quote.quote.amountOut)
    assert.equal(BigInt(body.minOut), (BigInt(body.expectedOut) * 9800n) / 10_000n)
    const [inBefore, outBefore] = [await d.balance(tokenIn, me), await d.balance(tokenOut, me)]
    await sendPlan(7, body)
    const got = (await d.balance(tokenOut, me)) - outBefore
    assert.ok(got >= BigInt(body.minOut), 'output ≥ minOut')
    assert.equal(got, BigInt(body.expectedOut))
    assert.equal(inBefore - (await d.balance(tokenIn, me)), 1000n * E18, 'input taken exactly once')
  }
  const tight = await ok(`/api/defi/amm/swap-tx?from=MC&amount=1000&recipient=${me}&slippageBps=50`)
  assert.equal(BigInt(tight.minOut), (BigInt(tight.expectedOut) * 9950n) / 10_000n)
  // A burn (service token to the dead address) shows in the activity feed.
  const hash = await d.wallet(7).writeContract({ address: c.token, abi: erc20Abi, functionName: 'transfer', args: [BURN_ADDRESS, 5n * E18] })
  await d.client.waitForTransactionReceipt({ hash })
  produced.push({ txHash: hash.toLowerCase(), kind: 'burn' })
  // A ranking send (MC to the fund wallet, MG burned 4 : 1) shows as a send.
  const ranking = c.ranking!
  for (const token of [c.token, c.secondToken]) await d.send(7, planStep({ to: token, abi: erc20Abi, functionName: 'approve', args: [ranking, 1000n * E18] }))
  const sent = await d.send(7, planStep({ to: ranking, abi: rankingAbi, functionName: 'sendMegachad', args: [400n * E18] }))
  produced.push({ txHash: sent.transactionHash.toLowerCase(), kind: 'send' })
})

test('the veto council stops Queued proposal 6: start-veto-vote prepended for the first voter, 11 veto votes → Vetoed', async () => {
  const against = await ok(`/api/defi/governance/veto-tx?proposalId=6&support=against&voter=${d.address(6)}`)
  assert.deepEqual([against.veto, against.isCouncilMember, against.executionPlan.map((s: any) => s.functionName)], [false, false, ['startVetoVote', 'castVetoVote']])
  assert.equal(against.executionPlan[1].args[1], false, 'no/against → false')
  for (const [n, member] of defiRoles.council.slice(0, 11).entries()) {
    const body = await ok(`/api/defi/governance/veto-tx?proposalId=6&support=${n % 2 ? 'yes' : 'veto'}&voter=${defiAccountAddresses[member as keyof typeof defiAccountAddresses]}`)
    assert.deepEqual(body.executionPlan.map((s: any) => s.functionName), n === 0 ? ['startVetoVote', 'castVetoVote'] : ['castVetoVote'])
    assert.equal(body.isCouncilMember, true)
    assert.equal(body.veto, true)
    await sendPlan(member, body, n === 10 ? 'proposal_vetoed' : undefined)
  }
  const p = (await ok('/api/defi/governance/proposals/6')).proposal
  assert.deepEqual([p.state, p.vetoed, p.veto.yesVotes], ['Vetoed', true, '11'])
  const err = await refused('/api/defi/governance/execute-tx?proposalId=6', 400, 'INVALID_INPUT')
  assert.equal(err.details.currentState, 'Vetoed')
})

test('a proposal through propose, vote, queue and execute, each plan from its endpoint', async () => {
  const c = d.devnet.info.contracts
  const proposer = defiRoles.proposer
  const proposerAddress = defiAccountAddresses[proposer]
  const data = encodeFunctionData({ abi: jesterStakingAbi, functionName: 'setAllocPoint', args: [0n, 6000n] })
  const propose = await post('/api/defi/governance/propose-tx', { proposer: proposerAddress.toLowerCase(), targets: [c.jesterStaking!.toLowerCase()], values: ['0'], calldatas: [data], description: 'Raise the MC/MG pool to 6000' })
  assert.equal(propose.status, 200, JSON.stringify(propose.body))
  assert.deepEqual([propose.body.eligibility.canPropose, propose.body.eligibility.proposer], [true, proposerAddress])
  assert.deepEqual(propose.body.executionPlan.map((s: any) => s.functionName), ['propose'])
  const outsider = await post('/api/defi/governance/propose-tx', { proposer: d.address(6), targets: [c.jesterStaking], values: ['0'], calldata: [], calldatas: [data], description: 'x' })
  assert.equal(outsider.body.eligibility.canPropose, false)
  await sendPlan(proposer, propose.body, 'proposal_created')
  const id = 9
  let p = (await ok(`/api/defi/governance/proposals/${id}`)).proposal
  assert.equal(p.state, 'Pending')
  assert.equal(p.actions[0].target, c.jesterStaking)
  await d.travel(DAY + 1)
  const vote = await ok(`/api/defi/governance/vote-tx?proposalId=${id}&support=for`)
  assert.equal(vote.executionPlan[0].args[1], 1, 'for is 1 in calldata')
  await sendPlan(proposer, vote, 'vote')
  p = (await ok(`/api/defi/governance/proposals/${id}?voter=${proposerAddress}`)).proposal
  assert.deepEqual([p.receipt.hasVoted, p.receipt.support], [true, 'for'])
  await d.travel(3 * DAY)
  assert.equal((await ok(`/api/defi/governance/proposals/${id}`)).proposal.state, 'Succeeded')
  await sendPlan(6, await ok(`/api/defi/governance/queue-tx?proposalId=${id}`), 'proposal_queued')
  const early = await refused(`/api/defi/governance/execute-tx?proposalId=${id}`, 400, 'INVALID_INPUT')
  assert.deepEqual([early.details.reason, early.details.currentState], ['timelock_pending', 'Queued'])
  await d.travel(2 * DAY)
  await sendPlan(6, await ok(`/api/defi/governance/execute-tx?proposalId=${id}`), 'proposal_executed')
  assert.equal((await ok(`/api/defi/governance/proposals/${id}`)).proposal.state, 'Executed')
  const pool = await d.client.readContract({ address: c.jesterStaking!, abi: jesterStakingAbi, functionName: 'getPoolInfo', args: [0n] })
  assert.equal(pool[1], 6000n, 'the action ran')
})

test('the activity feed holds the events the tests produced, newest first, within limit and lookback', async () => {
  await app.ctx.indexer.sync()
  const feed = await ok('/api/defi/activity?limit=200&blocks=50000')
  assert.equal(feed.chainId, 4326)
  const items = feed.items as any[]
  for (let i = 1; i < items.length; i++) {
    const [a, b] = [items[i - 1], items[i]]
    assert.ok(a.blockNumber > b.blockNumber || (a.blockNumber === b.blockNumber && a.logIndex > b.logIndex), 'newest first')
  }
  for (const e of produced) {
    assert.ok(items.some((it) => it.txHash === e.txHash && it.kind === e.kind), `${e.kind} ${e.txHash} in the feed`)
  }
  const kinds = new Set(items.map((it) => it.kind))
  for (const k of ['burn', 'send', 'stake', 'unstake', 'claim', 'proposal_created', 'vote', 'proposal_queued', 'proposal_executed', 'proposal_vetoed']) assert.ok(kinds.has(k), k)
  const stake = items.find((it) => it.kind === 'stake' && it.details.venue === 'jester')
  assert.equal(stake.actor, getAddress(stake.actor))
  assert.ok(BigInt(stake.amount) > 0n)
  assert.equal(items.filter((it) => it.kind === 'vote' && it.details.proposalId === 9)[0].details.support, 'for')
  const send = items.find((it) => it.kind === 'send')
  assert.deepEqual([send.actor, send.amount, send.details.megagoonerBurned], [d.address(7), (400n * E18).toString(), (100n * E18).toString()])
  // Every item carries the spec's summary: one sentence naming who did what.
  assert.match(send.summary, new RegExp(`^${d.address(7).slice(0, 6)}…${d.address(7).slice(-4)} sent 400 MC to the weekly ranking .*burning 100 MG$`))
  assert.match(stake.summary, /staked [\d,.]+ LP on the jester venue/)
  assert.ok(items.every((it) => typeof it.summary === 'string' && it.summary.length > 10))
  const few = await ok('/api/defi/activity?limit=3&blocks=50000')
  assert.deepEqual(few.items, items.slice(0, 3))
  // The lookback: only rows above head − blocks.
  const recent = await ok('/api/defi/activity?limit=200&blocks=100')
  assert.ok(recent.items.every((it: any) => it.blockNumber > feed.indexedHead - 100))
})

test('a paused circuit breaker is shown by safety', async () => {
  const vote = planStep({ to: d.devnet.info.contracts.circuitBreaker!, abi: circuitBreakerAbi, functionName: 'votePause', args: [true] })
  for (const guardian of defiRoles.guardians.slice(0, 3)) await d.send(guardian, vote)
  const safety = await ok('/api/defi/safety')
  assert.deepEqual([safety.circuitBreaker.paused, safety.writesSafe], [true, false])
  assert.equal(safety.circuitBreaker.autoUnpauseTime, safety.circuitBreaker.pausedAt + 7 * DAY)
  // While paused, no plan is handed out that the pair or a venue would revert: with the
  // transfer-style pair the swap's input would be left in the pair for anyone to take.
  const a = d.address(14)
  for (const url of [`/api/defi/amm/swap-tx?from=MC&amount=100&recipient=${a}`, `/api/defi/amm/add-liquidity-tx?amountMC=10&amountMG=1&recipient=${a}`, `/api/defi/staking/tx?action=stake&venue=mogger&amount=1&address=${a}`]) {
    assert.equal((await refused(url, 400, 'INVALID_INPUT')).details.reason, 'paused', url)
  }
  const staker = defiAccountAddresses[defiRoles.stakers.twentyFive]
  assert.equal((await get(`/api/defi/staking/tx?action=claim&venue=mogger&address=${staker}`)).status, 200, 'claim still works')
  assert.equal((await get(`/api/defi/staking/tx?action=unstake&venue=mogger&amount=1&address=${staker}`)).status, 200, 'unstake still works')
  // A claim of nothing (the wallet is known, and has earned nothing) would revert "No rewards".
  assert.equal((await refused(`/api/defi/staking/tx?action=claim&venue=mogger&address=${a}`, 400, 'INSUFFICIENT_BALANCE')).details.reason, 'nothing_to_claim')
})

test('a swap or liquidity recipient that cannot receive is refused: the zero address, the pair, its tokens', async () => {
  const c = d.devnet.info.contracts
  for (const bad of ['0x0000000000000000000000000000000000000000', c.pair!, c.token, c.secondToken]) {
    assert.equal((await refused(`/api/defi/amm/swap-tx?from=MC&amount=10&recipient=${bad}`, 400, 'INVALID_ADDRESS')).details.reason, 'invalid_recipient', bad)
  }
  assert.equal((await refused(`/api/defi/amm/add-liquidity-tx?amountMC=10&amountMG=1&recipient=${c.pair}`, 400, 'INVALID_ADDRESS')).details.reason, 'invalid_recipient')
  // And a wei value past uint256 in a proposal is a 400, not a 500 from the encoder.
  await refused('/api/defi/governance/propose-tx', 400, 'INVALID_AMOUNT', { targets: [c.jesterStaking], values: [(2n ** 256n).toString()], calldatas: ['0x'], description: 'x' })
})
