import { z } from 'zod'
import { defineOperation } from '../define.ts'
import { addressIn } from '../schemas.ts'
import { buildVetoPlan } from '../../chain/builders/build-governance-plans.ts'
import { defiAddress } from '../../chain/reads/defi-contracts.ts'
import { readSafety } from '../../chain/reads/read-safety.ts'
import { CHAIN_ID, planOrThrow, planOut, proposalIdIn, proposalOr404, stateDetails } from './shared.ts'
import { simulateForCaller } from '../plan-simulation.ts'

export const buildVetoTx = defineOperation({
  id: 'build_veto_tx',
  mcp: { tool: 'build_tx', as: 'veto' },
  limit: 'expensive',
  method: 'GET',
  path: '/api/defi/governance/veto-tx',
  summary: 'Veto council plan: startVetoVote when no window is open, then castVetoVote (yes/veto = true, no/against = false)',
  description: 'Only council members may vote; isCouncilMember tells whether voter is one (the call reverts for others). The plan is simulated from voter and handed out even when it would revert, marked simulation.executable false with the reason.',
  tags: ['defi'],
  input: z.object({
    proposalId: proposalIdIn,
    support: z.enum(['yes', 'veto', 'no', 'against']).meta({ description: 'yes or veto: veto the proposal; no or against: keep it' }),
    voter: addressIn('Council member who will send the plan'),
  }),
  output: z.object({ ...planOut, proposalId: z.number().int(), veto: z.boolean(), state: z.string(), windowOpen: z.boolean(), isCouncilMember: z.boolean() }),
  errors: ['INVALID_ADDRESS', 'NOT_FOUND', 'UPSTREAM_FAILED'],
  cacheControl: 'no-store',
  requires: ['governance', 'vetoCouncil', 'circuitBreaker'],
  uses: ['chain'],
  async handler(ctx, { proposalId, support, voter }) {
    const [p, safety, block] = await Promise.all([proposalOr404(ctx.chain, proposalId), readSafety(ctx.chain), ctx.chain.client.getBlock()])
    const veto = support === 'yes' || support === 'veto'
    const plan = planOrThrow(
      buildVetoPlan({
        vetoCouncil: defiAddress(ctx.chain, 'vetoCouncil'), proposalId: BigInt(proposalId), support: veto, state: p.stateCode,
        vetoStartTime: p.veto.startTime, vetoEndTime: p.veto.endTime, nowSeconds: block.timestamp,
      }),
      {}, { ...stateDetails(p.state, proposalId), vetoEndTime: Number(p.veto.endTime) },
    )
    const simulation = await simulateForCaller(ctx.chain, voter, plan, 'mark')
    return {
      chainId: CHAIN_ID, executionPlan: plan, simulation, proposalId, veto, state: p.state, windowOpen: p.veto.startTime !== 0n,
      isCouncilMember: safety.vetoCouncil.members.some((m) => m.toLowerCase() === voter.toLowerCase()),
    }
  },
})
