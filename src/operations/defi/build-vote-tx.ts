import { z } from 'zod'
import { defineOperation } from '../define.ts'
import { buildVotePlan } from '../../chain/builders/build-governance-plans.ts'
import { defiAddress } from '../../chain/reads/defi-contracts.ts'
import { addressIn } from '../schemas.ts'
import { CHAIN_ID, planOrThrow, planOut, proposalIdIn, proposalOr404, stateDetails } from './shared.ts'
import { simulateForCaller } from '../plan-simulation.ts'

export const buildVoteTx = defineOperation({
  id: 'build_vote_tx',
  mcp: { tool: 'build_tx', as: 'vote' },
  limit: 'expensive',
  method: 'GET',
  path: '/api/defi/governance/vote-tx',
  summary: 'castVote plan (support for=1, against=0, abstain=2 in calldata) for an Active proposal',
  description: 'With voter the plan is simulated from it; a vote that would revert (no voting power, already voted) is refused (400 PLAN_WOULD_REVERT with the reason).',
  tags: ['defi'],
  input: z.object({
    proposalId: proposalIdIn,
    support: z.enum(['for', 'against', 'abstain']).meta({ description: 'for, against or abstain' }),
    voter: addressIn('Wallet that will vote (for the simulation)').optional(),
  }),
  output: z.object({ ...planOut, proposalId: z.number().int(), support: z.string(), state: z.string() }),
  errors: ['INVALID_ADDRESS', 'NOT_FOUND', 'INSUFFICIENT_BALANCE', 'PLAN_WOULD_REVERT', 'UPSTREAM_FAILED'],
  cacheControl: 'no-store',
  requires: ['governance', 'vetoCouncil'],
  uses: ['chain'],
  async handler(ctx, { proposalId, support, voter }) {
    const p = await proposalOr404(ctx.chain, proposalId)
    const plan = planOrThrow(buildVotePlan({ governance: defiAddress(ctx.chain, 'governance'), proposalId: BigInt(proposalId), support, state: p.stateCode, times: p }), {}, stateDetails(p.state, proposalId))
    const simulation = await simulateForCaller(ctx.chain, voter, plan, 'refuse')
    return { chainId: CHAIN_ID, executionPlan: plan, simulation, proposalId, support, state: p.state }
  },
})
