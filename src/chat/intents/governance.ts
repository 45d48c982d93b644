import { formatEther } from 'viem'
import { listProposals as listProposalsOp } from '../../operations/defi/list-proposals.ts'
import { getProposal } from '../../operations/defi/get-proposal.ts'
import { buildVoteTx } from '../../operations/defi/build-vote-tx.ts'
import { buildQueueTx } from '../../operations/defi/build-queue-tx.ts'
import { buildExecuteTx } from '../../operations/defi/build-execute-tx.ts'
import { buildProposeTx } from '../../operations/defi/build-propose-tx.ts'
import { getProposeEligibility } from '../../operations/defi/get-propose-eligibility.ts'
import { buildVetoTx } from '../../operations/defi/build-veto-tx.ts'
import { call, type Call } from '../runner.ts'
import { stepsWords } from '../words.ts'
import { operationIntent, recipientOf, type IntentInput, type Missing } from './define-intent.ts'
import { forPayee } from './wallets.ts'

const needProposal: Missing = { missing: 'proposalId', hint: 'Name the proposal, e.g. "proposal 3" or "#3".' }
const proposalsCall = call(listProposalsOp, {}, 'List governance proposals')
const proposalCall = (ctx: IntentInput): Call[] => (ctx.entities.proposalId === undefined ? [proposalsCall] : [call(getProposal, { id: ctx.entities.proposalId }, `Details of proposal ${ctx.entities.proposalId}`)])
const related = () => [proposalsCall]

/** A governance transaction in words: nobody is paid but the contract called, with the ETH it carries. */
const txs = (plan: ReadonlyArray<{ to: string; value: string; functionName: string }>, ctx: IntentInput) => (plan.length ? ` It ${stepsWords(plan, ctx.contractName).replace(/^transaction 1 /, '')}.` : '')

const withProposal = <T>(ctx: IntentInput, build: (proposalId: number) => T): T | Missing => (ctx.entities.proposalId === undefined ? needProposal : build(ctx.entities.proposalId))

export const listProposals = operationIntent({
  description: 'Governance proposals with state and tally',
  example: 'show governance proposals',
  operation: listProposalsOp,
  input: () => ({}),
  answer: (d) =>
    d.proposals.length
      ? `${d.proposalCount} proposals: ${d.proposals.slice(0, 5).map((p) => `#${p.id} ${p.state}`).join(', ')}${d.proposals.length > 5 ? ', …' : ''}.`
      : 'No governance proposals yet.',
})

export const proposalDetail = operationIntent({
  description: 'One proposal in detail',
  example: 'proposal 3',
  operation: getProposal,
  input: (ctx) => withProposal(ctx, (id) => ({ id, voter: ctx.subject })),
  answer: (d) => {
    const p = d.proposal
    const votes = (wei: string) => Number(formatEther(BigInt(wei))).toLocaleString('en-US', { maximumFractionDigits: 2 })
    return `Proposal #${p.id} (${p.state}): "${p.description.slice(0, 120)}${p.description.length > 120 ? '…' : ''}"; ${votes(p.forVotes)} for, ${votes(p.againstVotes)} against, ${votes(p.abstainVotes)} abstain.`
  },
  related,
})

export const vote = operationIntent({
  description: 'Vote on a proposal (for, against, abstain): the castVote transaction',
  example: 'vote yes on proposal 2',
  operation: buildVoteTx,
  input: (ctx) => withProposal(ctx, (proposalId) => ({ proposalId, support: ctx.entities.support ?? 'for' })),
  answer: (d, ctx) => `Vote ${d.support} on proposal ${d.proposalId} (${d.state}): the transaction is ready to send.${txs(d.executionPlan, ctx)}`,
  next: proposalCall,
  related,
})

export const queueProposal = operationIntent({
  description: 'Queue a succeeded proposal in the timelock',
  example: 'queue proposal 3',
  operation: buildQueueTx,
  input: (ctx) => withProposal(ctx, (proposalId) => ({ proposalId })),
  answer: (d, ctx) => `Queue transaction for proposal ${d.proposalId} (${d.state}) ready to send.${txs(d.executionPlan, ctx)}`,
  next: proposalCall,
  related,
})

export const executeProposal = operationIntent({
  description: 'Execute a queued proposal',
  example: 'execute proposal 3',
  operation: buildExecuteTx,
  input: (ctx) => withProposal(ctx, (proposalId) => ({ proposalId })),
  answer: (d, ctx) => `Execute transaction for proposal ${d.proposalId} (${d.state}) ready to send.${txs(d.executionPlan, ctx)}`,
  next: proposalCall,
  related,
})

/**
 * Proposing is a write the chat does not build (it needs the proposal's calls and text): the
 * read says whether the wallet may propose this week, and what to POST.
 */
export const propose = operationIntent({
  description: 'Whether a wallet may propose (the week\'s top 3 burners) and how',
  example: 'can i propose something',
  operation: getProposeEligibility,
  input: (ctx) => ({ proposer: ctx.subject }),
  answer: (d) =>
    `${d.canPropose === null ? 'Only the week\'s top 3 burners (or last week\'s) may propose: send your wallet to check yours.' : d.canPropose ? `${d.proposer} may propose this week.` : `${d.proposer} may not propose this week: only the week's top 3 burners (or last week's) may.`} To propose, POST ${buildProposeTx.path} with targets, values, calldatas and description; it returns the propose transaction.`,
  related,
})

export const veto = operationIntent({
  description: 'Veto council: start or cast a veto vote on a proposal',
  example: 'veto proposal 3',
  operation: buildVetoTx,
  pays: true,
  input: (ctx) => withProposal(ctx, (proposalId) => forPayee(ctx, (voter) => ({ proposalId, support: ctx.entities.support === 'against' ? ('no' as const) : ('yes' as const), voter }))),
  answer: (d, ctx) =>
    `${d.veto ? 'Veto' : 'Keep'} vote on proposal ${d.proposalId} from ${recipientOf(ctx)}${d.isCouncilMember ? '' : ' (not a council member: the vote would revert)'}${d.windowOpen ? '' : ' (the veto window is not open)'}: ${d.executionPlan.length} transaction(s) ready to send${d.executionPlan.length ? `: ${stepsWords(d.executionPlan, ctx.contractName)}` : ''}.`,
  next: proposalCall,
  related,
})

