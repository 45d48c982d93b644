import { z } from 'zod'
import { defineOperation } from '../define.ts'
import { addressIn } from '../schemas.ts'
import { readPaused } from '../../chain/reads/read-paused.ts'
import { readStaking } from '../../chain/reads/read-staking.ts'
import { buildStakingPlan } from '../../chain/builders/build-staking-plan.ts'
import { AppError } from '../../errors/app-error.ts'
import { CHAIN_ID, humanAmount, planOrThrow, planOut } from './shared.ts'
import { simulateForCaller } from '../plan-simulation.ts'

export const buildStakingTx = defineOperation({
  id: 'build_staking_tx',
  mcp: { tool: 'build_tx', as: 'staking' },
  limit: 'expensive',
  method: 'GET',
  path: '/api/defi/staking/tx',
  summary: 'Execution plan to stake, unstake or claim on the mogger (MEGACHAD) or jester (MC/MG LP) venue',
  description: 'stake starts with approve when the allowance is short, or always when address is omitted. Staking needs at least one looksmaxx NFT (boost 1.0× / 1.075× / 1.15× at 1 / 10 / 25 NFTs). With address the plan is simulated from it; one that would revert is refused (400 PLAN_WOULD_REVERT naming the step and the reason).',
  tags: ['defi'],
  input: z.object({
    action: z.enum(['stake', 'unstake', 'claim']).meta({ description: 'stake, unstake or claim' }),
    venue: z.enum(['mogger', 'jester']).meta({ description: 'mogger (stakes MEGACHAD) or jester (stakes the MC/MG LP)' }),
    amount: humanAmount('Amount in token units, required for stake and unstake').optional(),
    address: addressIn('Wallet that will send the plan (for the allowance, NFT and stake checks, and the simulation)').optional(),
  }),
  output: z.object({
    ...planOut,
    action: z.string(),
    venue: z.string(),
    amount: z.string().nullable(),
    boostMultiplierBps: z.number().int().nullable(),
  }),
  errors: ['INVALID_ADDRESS', 'INVALID_AMOUNT', 'INSUFFICIENT_BALANCE', 'PLAN_WOULD_REVERT', 'UPSTREAM_FAILED'],
  cacheControl: 'no-store',
  requires: ['moggerStaking', 'jesterStaking', 'pair'],
  uses: ['chain'],
  async handler(ctx, { action, venue, amount, address }) {
    if (action !== 'claim' && amount === undefined) throw new AppError('INVALID_AMOUNT', `${action} needs an amount.`, { details: { field: 'amount' } })
    const [s, paused] = await Promise.all([readStaking(ctx.chain, address), action === 'stake' ? readPaused(ctx.chain) : false])
    const v = venue === 'mogger' ? s.mogger : s.jester
    const pos = s.wallet?.[venue]
    const plan = planOrThrow(
      buildStakingPlan({
        action, venue, staking: v.address, stakeToken: v.stakeToken, pid: s.jester.pid, amount,
        allowance: pos?.allowance, nftCount: s.wallet?.boost.nftCount, staked: pos?.staked, earned: pos?.earned, paused,
      }),
      { invalid_amount: 'INVALID_AMOUNT', insufficient_stake: 'INSUFFICIENT_BALANCE', nft_required: 'INSUFFICIENT_BALANCE', nothing_to_claim: 'INSUFFICIENT_BALANCE' },
    )
    const simulation = await simulateForCaller(ctx.chain, address, plan, 'refuse')
    return {
      chainId: CHAIN_ID, executionPlan: plan, simulation, action, venue, amount: amount?.toString() ?? null,
      boostMultiplierBps: s.wallet ? Number(s.wallet.boost.multiplierBps) : null,
    }
  },
})
