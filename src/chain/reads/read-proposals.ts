import type { Chain } from '../clients.ts'
import { governanceAbi, voteSupport, type ProposalState } from '../abis/governance.ts'
import { vetoCouncilAbi } from '../abis/veto-council.ts'
import { stateName } from '../builders/build-governance-plans.ts'
import { rpcFailed } from '../upstream-error.ts'
import { defiAddress, multicallList, ok, type Call } from './defi-contracts.ts'

export type ProposalSummary = {
  id: bigint
  proposer: `0x${string}`
  description: string
  state: ProposalState
  stateCode: number
  forVotes: bigint
  againstVotes: bigint
  abstainVotes: bigint
  startTime: bigint
  endTime: bigint
  /** 0 until queued. */
  eta: bigint
  executed: boolean
  vetoed: boolean
}

export type VetoWindow = { startTime: bigint; endTime: bigint; yesVotes: bigint; noVotes: bigint; executed: boolean; canExecute: boolean }

export type ProposalDetail = ProposalSummary & {
  actions: { target: `0x${string}`; value: bigint; calldata: `0x${string}` }[]
  veto: VetoWindow
  receipt?: { voter: `0x${string}`; hasVoted: boolean; support: keyof typeof voteSupport | null; votes: bigint }
}

type GetProposal = readonly [`0x${string}`, string, bigint, bigint, bigint, bigint, bigint, bigint, boolean, boolean, number]

function summary(id: bigint, p: GetProposal): ProposalSummary {
  return {
    id, proposer: p[0], description: p[1], forVotes: p[2], againstVotes: p[3], abstainVotes: p[4], startTime: p[5], endTime: p[6], eta: p[7],
    executed: p[8], vetoed: p[9], stateCode: p[10], state: stateName(p[10]),
  }
}

/**
 * The newest `limit` proposals, newest first, with state and tally. Two eth_calls: the count,
 * then one multicall of getProposal for the ids it gives (the count is needed to name them).
 */
export async function readProposals(chain: Chain, limit = 20): Promise<{ proposalCount: bigint; proposals: ProposalSummary[] }> {
  const governance = defiAddress(chain, 'governance')
  try {
    const proposalCount = await chain.client.readContract({ address: governance, abi: governanceAbi, functionName: 'proposalCount' })
    const ids: bigint[] = []
    for (let id = proposalCount; id >= 1n && ids.length < limit; id--) ids.push(id)
    if (ids.length === 0) return { proposalCount, proposals: [] }
    const results = await multicallList(chain, ids.map((id) => ({ address: governance, abi: governanceAbi, functionName: 'getProposal', args: [id] })))
    return { proposalCount, proposals: ids.map((id, i) => summary(id, ok<GetProposal>(results[i]))) }
  } catch (cause) {
    throw rpcFailed('reading the proposals', cause)
  }
}

/** One proposal with its actions, its veto window and (with a voter) the voter's receipt, in one multicall; null when the id does not exist. */
export async function readProposal(chain: Chain, id: bigint, voter?: `0x${string}`): Promise<ProposalDetail | null> {
  const governance = defiAddress(chain, 'governance')
  const vetoCouncil = defiAddress(chain, 'vetoCouncil')
  const calls: Call[] = [
    { address: governance, abi: governanceAbi, functionName: 'proposalCount' },
    { address: governance, abi: governanceAbi, functionName: 'getProposal', args: [id] },
    { address: governance, abi: governanceAbi, functionName: 'getActions', args: [id] },
    { address: vetoCouncil, abi: vetoCouncilAbi, functionName: 'getVetoVote', args: [id] },
    ...(voter ? [{ address: governance, abi: governanceAbi, functionName: 'getReceipt', args: [id, voter] }] : []),
  ]
  try {
    const results = await multicallList(chain, calls)
    const count = ok<bigint>(results[0])
    if (id < 1n || id > count) return null
    const [targets, values, calldatas] = ok<readonly [readonly `0x${string}`[], readonly bigint[], readonly `0x${string}`[]]>(results[2])
    const v = ok<readonly [bigint, bigint, bigint, bigint, boolean, boolean, boolean]>(results[3])
    const detail: ProposalDetail = {
      ...summary(id, ok<GetProposal>(results[1])),
      actions: targets.map((target, i) => ({ target, value: values[i]!, calldata: calldatas[i]! })),
      veto: { startTime: v[0], endTime: v[1], yesVotes: v[2], noVotes: v[3], executed: v[4], canExecute: v[6] },
    }
    if (voter) {
      const [hasVoted, support, votes] = ok<readonly [boolean, number, bigint]>(results[4])
      const name = (Object.keys(voteSupport) as (keyof typeof voteSupport)[]).find((k) => voteSupport[k] === support) ?? null
      detail.receipt = { voter, hasVoted, support: hasVoted ? name : null, votes }
    }
    return detail
  } catch (cause) {
    throw rpcFailed('reading a proposal', cause)
  }
}
