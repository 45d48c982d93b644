import { z } from 'zod'
import { defineOperation } from '../define.ts'
import { buildExecutePlan } from '../../chain/builders/build-governance-plans.ts'
import { defiAddress } from '../../chain/reads/defi-contracts.ts'
import { CHAIN_ID, planOrThrow, planOut, proposalIdIn, proposalOr404, stateDetails } from './shared.ts'

export const buildExecuteTx = defineOperation({
  id: 'build_execute_tx',
  method: 'GET',
  path: '/api/defi/governance/execute-tx',
  summary: 'execute plan for a Queued proposal whose timelock has passed (otherwise 400 naming the current state)',
  tags: ['defi'],
  input: z.object({ proposalId: proposalIdIn }),
  output: z.object({ ...planOut, proposalId: z.number().int(), state: z.string(), eta: z.number().int() }),
  errors: ['NOT_FOUND', 'UPSTREAM_FAILED'],
  cacheControl: 'no-store',
  uses: ['chain'],
  async handler(ctx, { proposalId }) {
    const p = await proposalOr404(ctx.chain, proposalId)
    const block = await ctx.chain.client.getBlock()
    const plan = planOrThrow(
      buildExecutePlan({ governance: defiAddress(ctx.chain, 'governance'), proposalId: BigInt(proposalId), state: p.stateCode, eta: p.eta, nowSeconds: block.timestamp, values: p.actions.map((a) => a.value) }),
      {}, { ...stateDetails(p.state, proposalId), eta: Number(p.eta) },
    )
    return { chainId: CHAIN_ID, executionPlan: plan, proposalId, state: p.state, eta: Number(p.eta) }
  },
})
