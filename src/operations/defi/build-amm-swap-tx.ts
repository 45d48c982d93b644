import { z } from 'zod'
import { defineOperation } from '../define.ts'
import { addressIn, boundedInt, wei } from '../schemas.ts'
import { readPaused } from '../../chain/reads/read-paused.ts'
import { readPair } from '../../chain/reads/read-pair.ts'
import { defiAddress } from '../../chain/reads/defi-contracts.ts'
import { buildPairSwapPlan } from '../../chain/builders/build-pair-plans.ts'
import { CHAIN_ID, humanAmount, planOrThrow, planOut } from './shared.ts'
import { simulateForCaller } from '../plan-simulation.ts'

export const buildAmmSwapTx = defineOperation({
  id: 'build_amm_swap_tx',
  mcp: { tool: 'build_tx', as: 'amm_swap' },
  limit: 'expensive',
  method: 'GET',
  path: '/api/defi/amm/swap-tx',
  summary: 'Execution plan to swap MC↔MG on the pair: transfer the input to the pair, then swap; with minOut',
  description: 'The pair has no on-chain minimum output: check the received amount against minOut off chain. Refused (400, details.reason) while the protocol is paused (paused) and for a recipient that cannot receive (invalid_recipient: the zero address, the pair, its tokens): the input sent first would be left in the pair. With address the plan is simulated from it; one that would revert (too few tokens) is refused (400 PLAN_WOULD_REVERT naming the step and the reason).',
  tags: ['defi'],
  input: z.object({
    from: z.enum(['MC', 'MG']).meta({ description: 'Input token: MC (MEGACHAD) or MG' }),
    amount: humanAmount('Input amount in token units'),
    recipient: addressIn('Receiver of the output'),
    slippageBps: boundedInt(0, 9999).default(200).meta({ description: 'Slippage tolerance in bps (default 200)' }),
    address: addressIn('Wallet that will send the plan (for the simulation)').optional(),
  }),
  output: z.object({
    ...planOut,
    from: z.string(),
    to: z.string(),
    amountIn: wei,
    expectedOut: wei,
    minOut: wei,
    slippageBps: z.number().int(),
    priceImpactBps: z.number().int(),
  }),
  errors: ['INVALID_ADDRESS', 'INVALID_AMOUNT', 'INSUFFICIENT_BALANCE', 'PLAN_WOULD_REVERT', 'UPSTREAM_FAILED'],
  cacheControl: 'no-store',
  requires: ['pair', 'secondToken'],
  uses: ['chain'],
  async handler(ctx, { from, amount, recipient, slippageBps, address }) {
    const [p, paused] = await Promise.all([readPair(ctx.chain), readPaused(ctx.chain)])
    const tokenIn = from === 'MC' ? ctx.chain.contracts.token : defiAddress(ctx.chain, 'secondToken')
    const result = buildPairSwapPlan({ ...p, tokenIn, amountIn: amount, recipient, slippageBps: BigInt(slippageBps), paused })
    const plan = planOrThrow(result, { invalid_amount: 'INVALID_AMOUNT', zero_output: 'INVALID_AMOUNT', invalid_recipient: 'INVALID_ADDRESS' })
    const q = result.quote!
    const simulation = await simulateForCaller(ctx.chain, address, plan, 'refuse')
    return {
      chainId: CHAIN_ID, executionPlan: plan, simulation, from, to: from === 'MC' ? 'MG' : 'MC', amountIn: amount.toString(),
      expectedOut: q.amountOut.toString(), minOut: q.minOut.toString(), slippageBps, priceImpactBps: Number(q.priceImpactBps),
    }
  },
})
