import { test } from 'node:test'
import assert from 'node:assert/strict'
import { encodeFunctionData } from 'viem'
import { useDefiDevnet, E18, DAY, type DefiDevnet } from './defi-support.ts'
import { buildExecutePlan, buildProposePlan, buildQueuePlan, buildVetoPlan, buildVotePlan } from '../../src/chain/builders/build-governance-plans.ts'
import { buildPairSwapPlan } from '../../src/chain/builders/build-pair-plans.ts'
import { buildStakingPlan } from '../../src/chain/builders/build-staking-plan.ts'
import { planStep } from '../../src/chain/builders/plan.ts'
import { readProposal, readProposals } from '../../src/chain/reads/read-proposals.ts'
import { readProposeEligibility } from '../../src/chain/reads/read-propose-eligibility.ts'
import { readSafety } from '../../src/chain/reads/read-safety.ts'
import { readEmission } from '../../src/chain/reads/read-emission.ts'
import { readPair } from '../../src/chain/reads/read-pair.ts'
import { jesterStakingAbi } from '../../src/chain/abis/jester-staking.ts'
import { circuitBreakerAbi } from '../../src/chain/abis/circuit-breaker.ts'
import { defiAccountAddresses, defiRoles } from '../../src/devnet/defi-accounts.ts'

const d = useDefiDevnet()

const proposer = defiRoles.proposer
const contracts = () => d.devnet.info.contracts

test('the seed leaves one proposal in every state, this week\'s ranking, the emission started and the breaker unpaused, with the clock at the wall clock', async () => {
  const { proposals, proposalCount } = await readProposals(d.chain)
  assert.equal(proposalCount, 8n)
  assert.deepEqual(
    proposals.map((p) => [p.id, p.state]),
    [[8n, 'Pending'], [7n, 'Active'], [6n, 'Queued'], [5n, 'Vetoed'], [4n, 'Succeeded'], [3n, 'Defeated'], [2n, 'Executed'], [1n, 'Expired']],
  )
  const eligibility = await readProposeEligibility(d.chain, defiAccountAddresses[proposer])
  assert.equal(eligibility.currentWeek, 4n)
  assert.equal(eligibility.canPropose, true)
  assert.deepEqual(eligibility.top3.map((e) => e.address), [proposer, ...defiRoles.burners].map((i) => defiAccountAddresses[i as keyof typeof defiAccountAddresses]))
  const emission = await readEmission(d.chain)
  assert.equal(emission.currentWeek, 4n)
  assert.equal(emission.weeklyEmission, (662_245n * E18 * 221n * 221n) / (225n * 225n))
  assert.deepEqual(emission.split, { moggerBps: 4500n, jesterBps: 4000n, treasuryBps: 1500n })
  assert.ok(emission.totalDistributed > 0n)
  const safety = await readSafety(d.chain)
  assert.equal(safety.circuitBreaker.paused, false)
  assert.deepEqual([safety.vetoCouncil.councilSize, safety.vetoCouncil.vetoThreshold, safety.vetoCouncil.vetoWindowSeconds, safety.vetoCouncil.seatsFilled], [20n, 11n, 2n * BigInt(DAY), 18])
  assert.ok(Math.abs(Number(await d.now()) - Date.now() / 1000) <= 3, 'the seed ended at the wall clock')
})

test('a proposal through propose, vote, queue and execute, each from its builder plan; wrong-state steps refused and reverted', async () => {
  const c = contracts()
  const governance = c.governance!
  const snap = await d.snapshot()
  try {
    // Not a top burner: the builder (with eligibility) refuses, the contract reverts.
    const outsider = await readProposeEligibility(d.chain, d.address(6))
    const data = encodeFunctionData({ abi: jesterStakingAbi, functionName: 'setAllocPoint', args: [0n, 6000n] })
    const proposal = { governance, targets: [c.jesterStaking!], values: [0n], calldatas: [data], description: 'Raise the MC/MG pool to 6000' }
    const refused = buildProposePlan({ ...proposal, canPropose: outsider.canPropose })
    assert.equal(!refused.ok && refused.reason, 'not_top_burner')
    const forced = buildProposePlan(proposal)
    assert.ok(forced.ok)
    assert.equal(await d.revertOf(6, forced.plan[0]!), 'Not a top burner')

    const eligibility = await readProposeEligibility(d.chain, d.address(proposer))
    await d.sendPlan(proposer, buildProposePlan({ ...proposal, canPropose: eligibility.canPropose }))
    const id = 9n
    let p = (await readProposal(d.chain, id, d.address(proposer)))!
    assert.equal(p.state, 'Pending')
    assert.equal(p.endTime - p.startTime, 3n * BigInt(DAY))
    assert.deepEqual(p.actions, [{ target: c.jesterStaking, value: 0n, calldata: data }])
    assert.equal(!buildVotePlan({ governance, proposalId: id, support: 'for', state: p.stateCode }).ok, true)
    assert.equal(await d.revertOf(proposer, planStep({ to: governance, abi: [{ type: 'function', name: 'castVote', stateMutability: 'nonpayable', inputs: [{ type: 'uint256' }, { type: 'uint8' }], outputs: [] }], functionName: 'castVote', args: [id, 1] })), 'Voting not active')

    await d.travel(DAY + 1)
    p = (await readProposal(d.chain, id))!
    assert.equal(p.state, 'Active')
    await d.sendPlan(proposer, buildVotePlan({ governance, proposalId: id, support: 'for', state: p.stateCode }))
    p = (await readProposal(d.chain, id, d.address(proposer)))!
    assert.deepEqual(p.receipt, { voter: d.address(proposer), hasVoted: true, support: 'for', votes: p.forVotes })
    const queueTooEarly = buildQueuePlan({ governance, proposalId: id, state: 3 })
    assert.ok(queueTooEarly.ok)
    assert.equal(await d.revertOf(proposer, queueTooEarly.plan[0]!), 'Proposal not succeeded')

    await d.travel(3 * DAY)
    p = (await readProposal(d.chain, id))!
    assert.equal(p.state, 'Succeeded')
    assert.equal(buildExecutePlan({ governance, proposalId: id, state: p.stateCode }).ok, false)
    await d.sendPlan(6, buildQueuePlan({ governance, proposalId: id, state: p.stateCode }))
    p = (await readProposal(d.chain, id))!
    assert.equal(p.state, 'Queued')
    const early = buildExecutePlan({ governance, proposalId: id, state: p.stateCode, eta: p.eta, nowSeconds: await d.now() })
    assert.equal(!early.ok && early.reason, 'timelock_pending')
    const forcedEarly = buildExecutePlan({ governance, proposalId: id, state: p.stateCode })
    assert.ok(forcedEarly.ok)
    assert.equal(await d.revertOf(6, forcedEarly.plan[0]!), 'Timelock not expired')

    await d.travel(2 * DAY)
    p = (await readProposal(d.chain, id))!
    await d.sendPlan(6, buildExecutePlan({ governance, proposalId: id, state: p.stateCode, eta: p.eta, nowSeconds: await d.now(), values: p.actions.map((a) => a.value) }))
    assert.equal((await readProposal(d.chain, id))!.state, 'Executed')
    const pool = await d.client.readContract({ address: c.jesterStaking!, abi: jesterStakingAbi, functionName: 'getPoolInfo', args: [0n] })
    assert.equal(pool[1], 6000n, 'the action ran: the MC/MG pool weight is 6000')
  } finally {
    await d.revert(snap)
  }
})

test('the veto council stops a Queued proposal: start-veto-vote prepended for the first voter, 11 yes votes → Vetoed', async () => {
  const c = contracts()
  const snap = await d.snapshot()
  try {
    const id = 6n
    const outsiderPlan = buildVetoPlan({ vetoCouncil: c.vetoCouncil!, proposalId: id, support: true, state: 4, vetoStartTime: 0n, vetoEndTime: 0n, nowSeconds: await d.now() })
    assert.ok(outsiderPlan.ok)
    assert.equal(await d.revertOf(6, outsiderPlan.plan[0]!), 'Not a council member')
    const council = defiRoles.council.slice(0, 11)
    for (const [n, member] of council.entries()) {
      const p = (await readProposal(d.chain, id))!
      assert.equal(p.state, 'Queued')
      const plan = buildVetoPlan({ vetoCouncil: c.vetoCouncil!, proposalId: id, support: true, state: p.stateCode, vetoStartTime: p.veto.startTime, vetoEndTime: p.veto.endTime, nowSeconds: await d.now() })
      assert.ok(plan.ok)
      assert.deepEqual(plan.plan.map((s) => s.functionName), n === 0 ? ['startVetoVote', 'castVetoVote'] : ['castVetoVote'])
      await d.sendPlan(member, plan)
    }
    const p = (await readProposal(d.chain, id))!
    assert.deepEqual([p.state, p.vetoed, p.veto.yesVotes, p.veto.executed], ['Vetoed', true, 11n, true])
    assert.equal(buildExecutePlan({ governance: c.governance!, proposalId: id, state: p.stateCode }).ok, false)
    const forced = buildExecutePlan({ governance: c.governance!, proposalId: id, state: 4 })
    assert.ok(forced.ok)
    await d.travel(DAY)
    assert.equal(await d.revertOf(6, forced.plan[0]!), 'Proposal not queued')
    // The window closes two days after it opened.
    await d.travel(2 * DAY)
    const late = buildVetoPlan({ vetoCouncil: c.vetoCouncil!, proposalId: id, support: true, state: p.stateCode, vetoStartTime: p.veto.startTime, vetoEndTime: p.veto.endTime, nowSeconds: await d.now() })
    assert.equal(!late.ok && late.reason, 'veto_window_closed')
  } finally {
    await d.revert(snap)
  }
})

test('the circuit breaker: 3 guardian votes pause; stake, swap and execute revert "Protocol paused"; auto-unpause after 7 days', async () => {
  const c = contracts()
  const breaker = c.circuitBreaker!
  const snap = await d.snapshot()
  try {
    const vote = planStep({ to: breaker, abi: circuitBreakerAbi, functionName: 'votePause', args: [true] })
    assert.equal(await d.revertOf(6, vote), 'Not a guardian')
    for (const guardian of defiRoles.guardians.slice(0, 3)) await d.send(guardian, vote)
    const safety = await readSafety(d.chain)
    assert.equal(safety.circuitBreaker.paused, true)
    assert.equal(safety.circuitBreaker.autoUnpauseTime, safety.circuitBreaker.pausedAt + 7n * BigInt(DAY))
    assert.deepEqual(safety.circuitBreaker.guardians, defiRoles.guardians.map((i) => defiAccountAddresses[i]))

    const staker = defiRoles.stakers.one
    const stake = buildStakingPlan({ action: 'stake', venue: 'mogger', staking: c.moggerStaking!, stakeToken: c.token, amount: E18, allowance: 2n ** 255n })
    assert.ok(stake.ok)
    assert.equal(await d.revertOf(staker, stake.plan[0]!), 'Protocol paused')
    const pair = await readPair(d.chain)
    const trader = defiRoles.proposer
    const swap = buildPairSwapPlan({ ...pair, tokenIn: c.token, amountIn: E18, recipient: d.address(trader) })
    assert.ok(swap.ok)
    await d.send(trader, swap.plan[0]!)
    assert.equal(await d.revertOf(trader, swap.plan[1]!), 'Protocol paused')
    await d.travel(DAY + 60)
    const queued = (await readProposal(d.chain, 6n))!
    const execute = buildExecutePlan({ governance: c.governance!, proposalId: 6n, state: queued.stateCode, eta: queued.eta, nowSeconds: await d.now() })
    assert.ok(execute.ok)
    assert.equal(await d.revertOf(6, execute.plan[0]!), 'Protocol paused')

    const autoUnpause = planStep({ to: breaker, abi: circuitBreakerAbi, functionName: 'autoUnpause' })
    assert.equal(await d.revertOf(6, autoUnpause), 'Too early')
    await d.travel(6 * DAY)
    await d.send(6, autoUnpause)
    assert.equal((await readSafety(d.chain)).circuitBreaker.paused, false)
    // Unpaused: the swap whose input was transferred during the pause goes through.
    await d.send(trader, swap.plan[1]!)
  } finally {
    await d.revert(snap)
  }
})
