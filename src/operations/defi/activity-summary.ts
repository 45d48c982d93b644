import { formatUnits } from 'viem'
import { TOKEN_DECIMALS } from '../../chain/constants.ts'

export type ActivityRow = { kind: string; actor: string | null; amount: string | null; extra: Record<string, unknown> }

const short = (address: string | null) => (address ? `${address.slice(0, 6)}…${address.slice(-4)}` : 'someone')
const tokens = (wei: string | null) => (wei === null ? '?' : Number(formatUnits(BigInt(wei), TOKEN_DECIMALS)).toLocaleString('en-US', { maximumFractionDigits: 2 }))

/** One sentence a person reads for an activity item (the spec's `summary`). */
export function summarizeActivity(row: ActivityRow): string {
  const who = short(row.actor)
  const e = row.extra
  const venue = e.venue === 'jester' ? 'the jester venue (MC/MG LP)' : 'the mogger venue (MC)'
  const unit = e.venue === 'jester' ? 'LP' : 'MC'
  switch (row.kind) {
    case 'burn':
      return `${who} burned ${tokens(row.amount)} MC`
    case 'stake':
      return `${who} staked ${tokens(row.amount)} ${unit} on ${venue}`
    case 'unstake':
      return `${who} unstaked ${tokens(row.amount)} ${unit} from ${venue}`
    case 'claim':
      return `${who} claimed ${tokens(row.amount)} MG from ${venue}`
    case 'send':
      return `${who} sent ${tokens(row.amount)} MC to the weekly ranking${e.week !== undefined ? ` (week ${e.week})` : ''}${typeof e.megagoonerBurned === 'string' ? `, burning ${tokens(e.megagoonerBurned)} MG` : ''}`
    case 'proposal_created':
      return `${who} proposed #${e.proposalId}${typeof e.description === 'string' && e.description ? `: ${e.description.length > 80 ? `${e.description.slice(0, 79)}…` : e.description}` : ''}`
    case 'vote': {
      const how = e.support === 'abstain' ? 'abstained on' : `voted ${e.support ?? '?'}`
      return `${who} ${how} #${e.proposalId} with ${tokens(row.amount)} votes`
    }
    case 'proposal_queued':
      return `Proposal #${e.proposalId} queued${typeof e.eta === 'number' ? `, executable from ${new Date(e.eta * 1000).toISOString()}` : ''}`
    case 'proposal_executed':
      return `Proposal #${e.proposalId} executed`
    case 'proposal_vetoed':
      return e.by === 'council' ? `Proposal #${e.proposalId} vetoed by the council (${e.yesVotes} yes, ${e.noVotes} no)` : `Proposal #${e.proposalId} vetoed by the owner`
    default:
      return `${row.kind} by ${who}`
  }
}
