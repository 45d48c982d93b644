import { z } from 'zod'
import { getAddress } from 'viem'
import { addressIn, addressOut, wei } from '../schemas.ts'
import { defineOperation } from '../define.ts'
import { buildExecutePlan } from '../../chain/builders/build-governance-plans.ts'
import { defiAddress } from '../../chain/reads/defi-contracts.ts'
import { CHAIN_ID, planOrThrow, planOut, proposalIdIn, proposalOr404, stateDetails } from './shared.ts'
import { simulateForCaller } from '../plan-simulation.ts'

export const buildExecuteTx = defineOperation({
  id: 'build_execute_tx',
  mcp: { tool: 'build_tx', as: 'execute' },
  // With address, an uncached simulation on the chain.
  limit: 'expensive',
  method: 'GET',
  path: '/api/defi/governance/execute-tx',
  summary: 'execute plan for a Queued proposal whose timelock has passed (otherwise 400 naming the current state)',
  description: 'Anyone may execute. With address the plan is simulated from it; one that would revert (an action that fails, too little ETH for callerPays) is refused (400 PLAN_WOULD_REVERT or INSUFFICIENT_BALANCE with the reason).',
  tags: ['defi'],
  input: z.object({ proposalId: proposalIdIn, address: addressIn('Wallet that will send the plan (for the simulation)').optional() }),
  output: z.object({
    ...planOut,
    proposalId: z.number().int(),
    state: z.string(),
    eta: z.number().int(),
    ethMovements: z
      .array(z.object({ to: addressOut, value: wei }))
      .describe('Where the proposal sends ETH when executed: each action with a value, paid from the governance contract'),
    treasuryBalance: wei.describe('ETH the governance contract holds now'),
    callerPays: wei.describe('The execute transaction\'s value: only what the governance contract lacks for the actions (0 when it holds enough)'),
  }),
  errors: ['INVALID_ADDRESS', 'NOT_FOUND', 'INSUFFICIENT_BALANCE', 'PLAN_WOULD_REVERT', 'UPSTREAM_FAILED'],
  cacheControl: 'no-store',
  requires: ['governance', 'vetoCouncil'],
  uses: ['chain'],
  async handler(ctx, { proposalId, address }) {
    const p = await proposalOr404(ctx.chain, proposalId)
    const governance = defiAddress(ctx.chain, 'governance')
    const [block, treasuryBalance] = await Promise.all([ctx.chain.client.getBlock(), ctx.chain.client.getBalance({ address: governance })])
    const plan = planOrThrow(
      buildExecutePlan({ governance, proposalId: BigInt(proposalId), state: p.stateCode, eta: p.eta, nowSeconds: block.timestamp, values: p.actions.map((a) => a.value), treasuryBalance, times: p }),
      {}, { ...stateDetails(p.state, proposalId), eta: Number(p.eta) },
    )
    const ethMovements = p.actions.filter((a) => a.value > 0n).map((a) => ({ to: getAddress(a.target), value: a.value.toString() }))
    const simulation = await simulateForCaller(ctx.chain, address, plan, 'refuse')
    return { chainId: CHAIN_ID, executionPlan: plan, simulation, proposalId, state: p.state, eta: Number(p.eta), ethMovements, treasuryBalance: treasuryBalance.toString(), callerPays: plan[0]!.value }
  },
})
