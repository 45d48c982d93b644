import { decodeEventLog, getAddress, isAddressEqual, toEventSelector, type Log } from 'viem'
import { tokenTransferAbi as transferAbi } from '../chain/abis/token.ts'
import { BURN_ADDRESS } from '../chain/constants.ts'
import { moggerStakingAbi } from '../chain/abis/mogger-staking.ts'
import { jesterStakingAbi } from '../chain/abis/jester-staking.ts'
import { rankingAbi } from '../chain/abis/ranking.ts'
import { governanceAbi } from '../chain/abis/governance.ts'
import { vetoCouncilAbi } from '../chain/abis/veto-council.ts'
import type { DefiActivityRow } from '../store/defi-activity.ts'

const SUPPORT = ['against', 'for', 'abstain'] as const

export type DefiAddresses = {
  token: `0x${string}`
  moggerStaking?: `0x${string}`
  jesterStaking?: `0x${string}`
  ranking?: `0x${string}`
  governance?: `0x${string}`
  vetoCouncil?: `0x${string}`
}

/** The DeFi contracts the indexer's log filter adds (those configured). */
export function defiLogAddresses(a: DefiAddresses): `0x${string}`[] {
  return [a.moggerStaking, a.jesterStaking, a.ranking, a.governance, a.vetoCouncil].filter((x): x is `0x${string}` => x !== undefined)
}

/** The topic0s of the DeFi events, added to the Transfer topic of the indexer's filter. */
export const DEFI_TOPICS: `0x${string}`[] = [
  ...['Staked', 'Unstaked', 'RewardsClaimed'].flatMap((name) => [
    toEventSelector(moggerStakingAbi.find((e) => e.type === 'event' && e.name === name) as never),
    toEventSelector(jesterStakingAbi.find((e) => e.type === 'event' && e.name === name) as never),
  ]),
  toEventSelector(rankingAbi.find((e) => e.type === 'event' && e.name === 'MegachadSent') as never),
  ...['ProposalCreated', 'VoteCast', 'ProposalQueued', 'ProposalExecuted', 'ProposalVetoed'].map((name) =>
    toEventSelector(governanceAbi.find((e) => e.type === 'event' && e.name === name) as never),
  ),
  toEventSelector(vetoCouncilAbi.find((e) => e.type === 'event' && e.name === 'VetoExecuted') as never),
]

type RawLog = Pick<Log, 'address' | 'topics' | 'data' | 'transactionHash' | 'logIndex' | 'blockNumber'>

/**
 * Activity rows of a page of logs: burns (service-token Transfer to the dead address), stakes,
 * unstakes and claims on both venues, the ranking's sends and governance events. Logs of
 * other contracts or events are skipped.
 */
export function decodeDefiActivity(logs: RawLog[], a: DefiAddresses): DefiActivityRow[] {
  const rows: DefiActivityRow[] = []
  const is = (x: `0x${string}` | undefined, log: RawLog) => x !== undefined && isAddressEqual(log.address, x)
  for (const log of logs) {
    const topics = log.topics as [`0x${string}`, ...`0x${string}`[]]
    const base = { txHash: log.transactionHash!.toLowerCase(), logIndex: Number(log.logIndex), blockNumber: BigInt(log.blockNumber!) }
    try {
      if (is(a.token, log) && topics.length === 3) {
        const { args } = decodeEventLog({ abi: transferAbi, data: log.data, topics })
        if (isAddressEqual(args.to, BURN_ADDRESS)) rows.push({ ...base, kind: 'burn', actor: getAddress(args.from), amount: args.value, extra: {} })
      } else if (is(a.moggerStaking, log) || is(a.jesterStaking, log)) {
        const mogger = is(a.moggerStaking, log)
        const ev = decodeEventLog({ abi: mogger ? moggerStakingAbi : jesterStakingAbi, data: log.data, topics }) as { eventName: string; args: Record<string, unknown> }
        const kind = ({ Staked: 'stake', Unstaked: 'unstake', RewardsClaimed: 'claim' } as const)[ev.eventName as 'Staked']
        if (!kind) continue
        const amount = (ev.args.amount ?? ev.args.reward) as bigint
        rows.push({ ...base, kind, actor: getAddress(ev.args.user as string), amount, extra: mogger ? { venue: 'mogger' } : { venue: 'jester', pid: String(ev.args.pid) } })
      } else if (is(a.ranking, log)) {
        const ev = decodeEventLog({ abi: rankingAbi, data: log.data, topics })
        if (ev.eventName !== 'MegachadSent') continue
        rows.push({ ...base, kind: 'send', actor: getAddress(ev.args.sender), amount: ev.args.megachadAmount, extra: { megagoonerBurned: ev.args.megagoonerBurned.toString(), week: Number(ev.args.week) } })
      } else if (is(a.vetoCouncil, log)) {
        // The council's threshold reached: the proposal is vetoed (governance emits nothing then).
        const ev = decodeEventLog({ abi: vetoCouncilAbi, data: log.data, topics })
        if (ev.eventName !== 'VetoExecuted') continue
        rows.push({ ...base, kind: 'proposal_vetoed', actor: null, amount: null, extra: { proposalId: Number(ev.args.proposalId), by: 'council', yesVotes: Number(ev.args.yesVotes), noVotes: Number(ev.args.noVotes) } })
      } else if (is(a.governance, log)) {
        const ev = decodeEventLog({ abi: governanceAbi, data: log.data, topics }) as { eventName: string; args: Record<string, any> }
        const proposalId = Number(ev.args.proposalId)
        if (ev.eventName === 'ProposalCreated') rows.push({ ...base, kind: 'proposal_created', actor: getAddress(ev.args.proposer), amount: null, extra: { proposalId, description: String(ev.args.description).slice(0, 200) } })
        else if (ev.eventName === 'VoteCast') rows.push({ ...base, kind: 'vote', actor: getAddress(ev.args.voter), amount: ev.args.votes, extra: { proposalId, support: SUPPORT[Number(ev.args.support)] ?? String(ev.args.support) } })
        else if (ev.eventName === 'ProposalQueued') rows.push({ ...base, kind: 'proposal_queued', actor: null, amount: null, extra: { proposalId, eta: Number(ev.args.eta) } })
        else if (ev.eventName === 'ProposalExecuted') rows.push({ ...base, kind: 'proposal_executed', actor: null, amount: null, extra: { proposalId } })
        else if (ev.eventName === 'ProposalVetoed') rows.push({ ...base, kind: 'proposal_vetoed', actor: null, amount: null, extra: { proposalId, by: 'owner' } })
      }
    } catch {
      // A log that does not decode with the known ABIs is not activity.
    }
  }
  return rows
}
