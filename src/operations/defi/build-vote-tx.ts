import { z } from 'zod'
import { defineOperation } from '../define.ts'
import { buildVotePlan } from '../../chain/builders/build-governance-plans.ts'
import { defiAddress } from '../../chain/reads/defi-contracts.ts'
import { CHAIN_ID, planOrThrow, planOut, proposalIdIn, proposalOr404, stateDetails } from './shared.ts'

export const buildVoteTx = defineOperation({
  id: 'build_vote_tx',
  mcp: { tool: 'build_tx', as: 'vote' },
  limit: 'expensive',
  method: 'GET',
  path: '/api/defi/governance/vote-tx',
  summary: 'castVote plan (support for=1, against=0, abstain=2 in calldata) for an Active proposal',
  tags: ['defi'],
  input: z.object({ proposalId: proposalIdIn, support: z.enum(['for', 'against', 'abstain']).meta({ description: 'for, against or abstain' }) }),
  output: z.object({ ...planOut, proposalId: z.number().int(), support: z.string(), state: z.string() }),
  errors: ['NOT_FOUND', 'UPSTREAM_FAILED'],
  cacheControl: 'no-store',
  uses: ['chain'],
  async handler(ctx, { proposalId, support }) {
    const p = await proposalOr404(ctx.chain, proposalId)
    const plan = planOrThrow(buildVotePlan({ governance: defiAddress(ctx.chain, 'governance'), proposalId: BigInt(proposalId), support, state: p.stateCode, times: p }), {}, stateDetails(p.state, proposalId))
    return { chainId: CHAIN_ID, executionPlan: plan, proposalId, support, state: p.state }
  },
})
