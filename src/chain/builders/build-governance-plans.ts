import { isAddress, isHex } from 'viem'
import { governanceAbi, proposalStates, voteSupport, type ProposalState, type VoteSupport } from '../abis/governance.ts'
import { vetoCouncilAbi } from '../abis/veto-council.ts'
import { planStep, refuse, type PlanResult } from './plan.ts'

export type GovernanceRefusal =
  | 'invalid_proposal'
  | 'not_top_burner'
  | 'wrong_state'
  | 'timelock_pending'
  | 'veto_window_closed'

export const stateName = (state: number): ProposalState => proposalStates[state] ?? 'Pending'

/** A proposal's schedule, in unix seconds (what the refusals tell the caller to wait for). */
export type ProposalTimes = { startTime?: bigint; endTime?: bigint; eta?: bigint }

const at = (seconds: bigint) => new Date(Number(seconds) * 1000).toISOString()

/**
 * What can be done with a proposal in its state, and when: the second sentence of every refusal
 * for the wrong state, so the caller learns the next step instead of only the state's name.
 */
export function nextStepOf(proposalId: bigint, state: ProposalState, times: ProposalTimes = {}): string {
  const id = proposalId.toString()
  switch (state) {
    case 'Pending':
      return times.startTime ? `Voting opens at ${at(times.startTime)}; build the vote then.` : 'Voting has not opened yet.'
    case 'Active':
      return `Voting is open${times.endTime ? ` until ${at(times.endTime)}` : ''}: GET /api/defi/governance/vote-tx?proposalId=${id}&support=for builds a vote; if it succeeds, queue it after that.`
    case 'Succeeded':
      return `It passed: queue it first with GET /api/defi/governance/queue-tx?proposalId=${id}.`
    case 'Queued':
      return `It is queued: GET /api/defi/governance/execute-tx?proposalId=${id} builds the execution${times.eta ? ` from ${at(times.eta)}` : ''} (NFT holders may veto it meanwhile).`
    default:
      return `${state} is final: nothing more can be done with it.`
  }
}

/**
 * propose(targets, values, calldatas, description). Refused when the arrays are empty or of
 * different lengths, an address or calldata is malformed, the description is empty, or (when
 * known) the proposer is not one of the ranking's top 3 of this or last week.
 */
export function buildProposePlan(input: {
  governance: `0x${string}`
  targets: string[]
  values: bigint[]
  calldatas: string[]
  description: string
  canPropose?: boolean
}): PlanResult<GovernanceRefusal> {
  const { targets, values, calldatas } = input
  if (targets.length === 0 || targets.length !== values.length || targets.length !== calldatas.length) {
    return refuse('invalid_proposal', 'targets, values and calldatas must be non-empty and of equal length.')
  }
  const badTarget = targets.find((t) => !isAddress(t, { strict: false }))
  if (badTarget !== undefined) return refuse('invalid_proposal', `${badTarget} is not an address.`)
  const badData = calldatas.find((d) => !isHex(d, { strict: true }) || d.length % 2 !== 0)
  if (badData !== undefined) return refuse('invalid_proposal', `${badData} is not hex calldata.`)
  if (values.some((v) => v < 0n)) return refuse('invalid_proposal', 'values must be non-negative wei amounts.')
  if (input.description.trim() === '') return refuse('invalid_proposal', 'The description must not be empty.')
  if (input.canPropose === false) {
    return refuse('not_top_burner', "Only the ranking's top 3 burners of this or last week may propose; GET /api/defi/governance/propose-tx?proposer=<address> lists them and what each burned.")
  }
  return {
    ok: true,
    plan: [planStep({ to: input.governance, abi: governanceAbi, functionName: 'propose', args: [targets as `0x${string}`[], values, calldatas as `0x${string}`[], input.description] })],
  }
}

/** castVote(id, support) with support 0 against, 1 for, 2 abstain; refused unless the proposal is Active (when the state is known). */
export function buildVotePlan(input: { governance: `0x${string}`; proposalId: bigint; support: VoteSupport; state?: number; times?: ProposalTimes }): PlanResult<GovernanceRefusal> {
  if (input.state !== undefined && stateName(input.state) !== 'Active') {
    const state = stateName(input.state)
    return refuse('wrong_state', `Proposal ${input.proposalId} is ${state}; votes are cast while it is Active. ${nextStepOf(input.proposalId, state, input.times)}`)
  }
  return { ok: true, plan: [planStep({ to: input.governance, abi: governanceAbi, functionName: 'castVote', args: [input.proposalId, voteSupport[input.support]] })] }
}

/** queue(id): only for a Succeeded proposal. */
export function buildQueuePlan(input: { governance: `0x${string}`; proposalId: bigint; state: number; times?: ProposalTimes }): PlanResult<GovernanceRefusal> {
  const state = stateName(input.state)
  if (state !== 'Succeeded') return refuse('wrong_state', `Proposal ${input.proposalId} is ${state}; only a Succeeded proposal can be queued. ${nextStepOf(input.proposalId, state, input.times)}`)
  return { ok: true, plan: [planStep({ to: input.governance, abi: governanceAbi, functionName: 'queue', args: [input.proposalId] })] }
}

/**
 * execute(id): only for a Queued proposal whose timelock has passed (eta ≤ now, when given).
 * The actions' ETH is paid from the governance contract's balance, to which execute's value is
 * added (it is payable): the caller sends only what the contract lacks, never the whole sum.
 */
export function buildExecutePlan(input: {
  governance: `0x${string}`
  proposalId: bigint
  state: number
  eta?: bigint
  nowSeconds?: bigint
  values?: bigint[]
  /** ETH the governance contract holds now (default: none, so the caller pays every value). */
  treasuryBalance?: bigint
  times?: ProposalTimes
}): PlanResult<GovernanceRefusal> {
  const state = stateName(input.state)
  if (state !== 'Queued') return refuse('wrong_state', `Proposal ${input.proposalId} is ${state}; only a Queued proposal can be executed. ${nextStepOf(input.proposalId, state, { ...input.times, eta: input.eta })}`)
  if (input.eta !== undefined && input.nowSeconds !== undefined && input.nowSeconds < input.eta) {
    const wait = input.eta - input.nowSeconds
    return refuse('timelock_pending', `Proposal ${input.proposalId} can be executed from ${at(input.eta)} (in ${wait} s): its timelock has not passed.`)
  }
  const total = (input.values ?? []).reduce((sum, v) => sum + v, 0n)
  const held = input.treasuryBalance ?? 0n
  const value = total > held ? total - held : 0n
  return { ok: true, plan: [planStep({ to: input.governance, abi: governanceAbi, functionName: 'execute', args: [input.proposalId], value })] }
}

/**
 * castVetoVote(id, support) on the council, preceded by startVetoVote(id) when no window is
 * open yet (startTime 0; the proposal must then be Queued). Refused once the 2-day window has
 * closed.
 */
export function buildVetoPlan(input: {
  vetoCouncil: `0x${string}`
  proposalId: bigint
  support: boolean
  state: number
  vetoStartTime: bigint
  vetoEndTime: bigint
  nowSeconds: bigint
}): PlanResult<GovernanceRefusal> {
  const cast = planStep({ to: input.vetoCouncil, abi: vetoCouncilAbi, functionName: 'castVetoVote', args: [input.proposalId, input.support] })
  if (input.vetoStartTime === 0n) {
    if (stateName(input.state) !== 'Queued') return refuse('wrong_state', `Proposal ${input.proposalId} is ${stateName(input.state)}; a veto vote opens only on a Queued proposal.`)
    return { ok: true, plan: [planStep({ to: input.vetoCouncil, abi: vetoCouncilAbi, functionName: 'startVetoVote', args: [input.proposalId] }), cast] }
  }
  if (input.nowSeconds > input.vetoEndTime) return refuse('veto_window_closed', `The veto window of proposal ${input.proposalId} closed at ${new Date(Number(input.vetoEndTime) * 1000).toISOString()}.`)
  return { ok: true, plan: [cast] }
}
