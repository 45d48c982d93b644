import { z } from 'zod'
import { defineOperation } from '../define.ts'
import { buildQueuePlan } from '../../chain/builders/build-governance-plans.ts'
import { defiAddress } from '../../chain/reads/defi-contracts.ts'
import { CHAIN_ID, planOrThrow, planOut, proposalIdIn, proposalOr404, stateDetails } from './shared.ts'

export const buildQueueTx = defineOperation({
  id: 'build_queue_tx',
  mcp: { tool: 'build_tx', as: 'queue' },
  method: 'GET',
  path: '/api/defi/governance/queue-tx',
  summary: 'queue plan for a Succeeded proposal (otherwise 400 naming the current state)',
  tags: ['defi'],
  input: z.object({ proposalId: proposalIdIn }),
  output: z.object({ ...planOut, proposalId: z.number().int(), state: z.string() }),
  errors: ['NOT_FOUND', 'UPSTREAM_FAILED'],
  cacheControl: 'no-store',
  uses: ['chain'],
  async handler(ctx, { proposalId }) {
    const p = await proposalOr404(ctx.chain, proposalId)
    const plan = planOrThrow(buildQueuePlan({ governance: defiAddress(ctx.chain, 'governance'), proposalId: BigInt(proposalId), state: p.stateCode, times: p }), {}, stateDetails(p.state, proposalId))
    return { chainId: CHAIN_ID, executionPlan: plan, proposalId, state: p.state }
  },
})
