import { test } from 'node:test'
import assert from 'node:assert/strict'
import { decodeFunctionData, getAddress } from 'viem'
import { buildExecutePlan, buildProposePlan, buildQueuePlan, buildVetoPlan, buildVotePlan } from './build-governance-plans.ts'
import { governanceAbi, proposalStates } from '../abis/governance.ts'
import { vetoCouncilAbi } from '../abis/veto-council.ts'

const governance = getAddress('0x1111111111111111111111111111111111111111')
const vetoCouncil = getAddress('0x2222222222222222222222222222222222222222')
const target = getAddress('0x3333333333333333333333333333333333333333')
const S = Object.fromEntries(proposalStates.map((name, i) => [name, i])) as Record<(typeof proposalStates)[number], number>
const reason = (r: { ok: boolean; reason?: string }) => (r.ok ? 'ok' : r.reason)

test('propose: one call with the arrays; validation and eligibility refusals', () => {
  const result = buildProposePlan({ governance, targets: [target], values: [0n], calldatas: ['0x'], description: 'signal', canPropose: true })
  assert.ok(result.ok)
  assert.deepEqual(decodeFunctionData({ abi: governanceAbi, data: result.plan[0]!.data }), { functionName: 'propose', args: [[target], [0n], ['0x'], 'signal'] })
  assert.deepEqual(result.plan[0]!.args, [[target], ['0'], ['0x'], 'signal'])
  const ok = { governance, targets: [target], values: [0n], calldatas: ['0x'], description: 'x' }
  assert.equal(reason(buildProposePlan({ ...ok, targets: [] , values: [], calldatas: [] })), 'invalid_proposal')
  assert.equal(reason(buildProposePlan({ ...ok, values: [0n, 1n] })), 'invalid_proposal')
  assert.equal(reason(buildProposePlan({ ...ok, targets: ['0x12'] })), 'invalid_proposal')
  assert.equal(reason(buildProposePlan({ ...ok, calldatas: ['0xabc'] })), 'invalid_proposal')
  assert.equal(reason(buildProposePlan({ ...ok, description: ' ' })), 'invalid_proposal')
  assert.equal(reason(buildProposePlan({ ...ok, canPropose: false })), 'not_top_burner')
})

test('vote encodes support as a number and needs Active', () => {
  for (const [support, n] of [['against', 0], ['for', 1], ['abstain', 2]] as const) {
    const result = buildVotePlan({ governance, proposalId: 3n, support, state: S.Active })
    assert.ok(result.ok)
    assert.deepEqual(decodeFunctionData({ abi: governanceAbi, data: result.plan[0]!.data }).args, [3n, n])
  }
  assert.equal(reason(buildVotePlan({ governance, proposalId: 3n, support: 'for', state: S.Pending })), 'wrong_state')
})

test('queue only Succeeded; execute only Queued after eta, with the summed value when the treasury holds nothing', () => {
  for (const state of proposalStates) {
    assert.equal(buildQueuePlan({ governance, proposalId: 1n, state: S[state] }).ok, state === 'Succeeded', state)
    assert.equal(buildExecutePlan({ governance, proposalId: 1n, state: S[state] }).ok, state === 'Queued', state)
  }
  assert.equal(reason(buildExecutePlan({ governance, proposalId: 1n, state: S.Queued, eta: 100n, nowSeconds: 99n })), 'timelock_pending')
  const result = buildExecutePlan({ governance, proposalId: 1n, state: S.Queued, eta: 100n, nowSeconds: 100n, values: [1n, 2n] })
  assert.ok(result.ok)
  assert.deepEqual([result.plan[0]!.functionName, result.plan[0]!.value, result.plan[0]!.args], ['execute', '3', ['1']])
})

test('execute: the caller sends only what the governance contract lacks for the actions (issue 23)', () => {
  const plan = (treasuryBalance: bigint) => {
    const result = buildExecutePlan({ governance, proposalId: 1n, state: S.Queued, values: [5n, 2n], treasuryBalance })
    assert.ok(result.ok)
    return result.plan[0]!.value
  }
  assert.equal(plan(0n), '7', 'an empty treasury: the caller pays all')
  assert.equal(plan(3n), '4', 'the shortfall only')
  assert.equal(plan(7n), '0', 'a treasury that holds enough: the caller pays nothing')
  assert.equal(plan(100n), '0')
})

test('veto: start-veto-vote prepended when no window is open; refused when closed or not Queued', () => {
  const fresh = buildVetoPlan({ vetoCouncil, proposalId: 6n, support: true, state: S.Queued, vetoStartTime: 0n, vetoEndTime: 0n, nowSeconds: 1000n })
  assert.ok(fresh.ok)
  assert.deepEqual(fresh.plan.map((s) => decodeFunctionData({ abi: vetoCouncilAbi, data: s.data })), [
    { functionName: 'startVetoVote', args: [6n] },
    { functionName: 'castVetoVote', args: [6n, true] },
  ])
  const open = buildVetoPlan({ vetoCouncil, proposalId: 6n, support: false, state: S.Queued, vetoStartTime: 900n, vetoEndTime: 900n + 172_800n, nowSeconds: 1000n })
  assert.ok(open.ok)
  assert.deepEqual(open.plan.map((s) => [s.functionName, s.args]), [['castVetoVote', ['6', false]]])
  assert.equal(reason(buildVetoPlan({ vetoCouncil, proposalId: 6n, support: true, state: S.Queued, vetoStartTime: 1n, vetoEndTime: 2n, nowSeconds: 3n })), 'veto_window_closed')
  assert.equal(reason(buildVetoPlan({ vetoCouncil, proposalId: 6n, support: true, state: S.Succeeded, vetoStartTime: 0n, vetoEndTime: 0n, nowSeconds: 3n })), 'wrong_state')
})
