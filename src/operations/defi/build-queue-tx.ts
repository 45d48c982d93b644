import { z } from 'zod'
import { defineOperation } from '../define.ts'
import { buildQueuePlan } from '../../chain/builders/build-governance-plans.ts'
import { defiAddress } from '../../chain/reads/defi-contracts.ts'
import { addressIn } from '../schemas.ts'
import { CHAIN_ID, planOrThrow, planOut, proposalIdIn, proposalOr404, stateDetails } from './shared.ts'
import { simulateForCaller } from '../plan-simulation.ts'

export const buildQueueTx = defineOperation({
  id: 'build_queue_tx',
  mcp: { tool: 'build_tx', as: 'queue' },
  // With address, an uncached simulation on the chain.
  limit: 'expensive',
  method: 'GET',
  path: '/api/defi/governance/queue-tx',
  summary: 'queue plan for a Succeeded proposal (otherwise 400 naming the current state)',
  description: 'Anyone may queue. With address the plan is simulated from it; one that would revert is refused (400 PLAN_WOULD_REVERT with the reason).',
  tags: ['defi'],
  input: z.object({ proposalId: proposalIdIn, address: addressIn('Wallet that will send the plan (for the simulation)').optional() }),
  output: z.object({ ...planOut, proposalId: z.number().int(), state: z.string() }),
  errors: ['INVALID_ADDRESS', 'NOT_FOUND', 'INSUFFICIENT_BALANCE', 'PLAN_WOULD_REVERT', 'UPSTREAM_FAILED'],
  cacheControl: 'no-store',
  requires: ['governance', 'vetoCouncil'],
  uses: ['chain'],
  async handler(ctx, { proposalId, address }) {
    const p = await proposalOr404(ctx.chain, proposalId)
    const plan = planOrThrow(buildQueuePlan({ governance: defiAddress(ctx.chain, 'governance'), proposalId: BigInt(proposalId), state: p.stateCode, times: p }), {}, stateDetails(p.state, proposalId))
    const simulation = await simulateForCaller(ctx.chain, address, plan, 'refuse')
    return { chainId: CHAIN_ID, executionPlan: plan, simulation, proposalId, state: p.state }
  },
})
