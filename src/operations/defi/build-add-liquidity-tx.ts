import { z } from 'zod'
import { defineOperation } from '../define.ts'
import { addressIn, wei } from '../schemas.ts'
import { readPaused } from '../../chain/reads/read-paused.ts'
import { readPair } from '../../chain/reads/read-pair.ts'
import { buildAddLiquidityPlan } from '../../chain/builders/build-pair-plans.ts'
import { CHAIN_ID, humanAmount, pairSides, planOrThrow, planOut } from './shared.ts'
import { simulateForCaller } from '../plan-simulation.ts'

export const buildAddLiquidityTx = defineOperation({
  id: 'build_add_liquidity_tx',
  mcp: { tool: 'build_tx', as: 'add_liquidity' },
  limit: 'expensive',
  method: 'GET',
  path: '/api/defi/amm/add-liquidity-tx',
  summary: 'Execution plan to add MC/MG liquidity: approve, approve, addLiquidity',
  description: 'Each approve is left out when address is given and its allowance already covers the amount. With address the plan is simulated from it; one that would revert is refused (400 PLAN_WOULD_REVERT naming the step and the reason).',
  tags: ['defi'],
  input: z.object({
    amountMC: humanAmount('MEGACHAD to deposit, token units'),
    amountMG: humanAmount('MG to deposit, token units'),
    recipient: addressIn('Receiver of the LP tokens'),
    address: addressIn('Wallet that will send the plan (for the allowance checks and the simulation)').optional(),
  }),
  output: z.object({ ...planOut, amountMC: wei, amountMG: wei, recipient: z.string() }),
  errors: ['INVALID_ADDRESS', 'INVALID_AMOUNT', 'INSUFFICIENT_BALANCE', 'PLAN_WOULD_REVERT', 'UPSTREAM_FAILED'],
  cacheControl: 'no-store',
  requires: ['pair', 'secondToken'],
  uses: ['chain'],
  async handler(ctx, { amountMC, amountMG, recipient, address }) {
    const [p, paused] = await Promise.all([readPair(ctx.chain, address), readPaused(ctx.chain)])
    const { aIsMc } = pairSides(p, ctx.chain.contracts.token)
    const plan = planOrThrow(
      buildAddLiquidityPlan({
        pair: p.pair, tokenA: p.tokenA, tokenB: p.tokenB, amountA: aIsMc ? amountMC : amountMG, amountB: aIsMc ? amountMG : amountMC,
        recipient, allowanceA: p.allowanceA, allowanceB: p.allowanceB, paused,
      }),
      { invalid_amount: 'INVALID_AMOUNT', invalid_recipient: 'INVALID_ADDRESS' },
    )
    const simulation = await simulateForCaller(ctx.chain, address, plan, 'refuse')
    return { chainId: CHAIN_ID, executionPlan: plan, simulation, amountMC: amountMC.toString(), amountMG: amountMG.toString(), recipient }
  },
})
