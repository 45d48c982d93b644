import { z } from 'zod'
import { defineOperation } from '../define.ts'
import { walletIn, addressOut, wei } from '../schemas.ts'
import { readStaking, type VenuePosition, type VenueStats } from '../../chain/reads/read-staking.ts'
import { CHAIN_ID, fmt } from './shared.ts'

const venueOut = z.object({
  address: addressOut,
  stakeToken: addressOut,
  totalStaked: wei,
  totalStakedFormatted: z.string(),
  totalEffectiveStake: wei,
  currentWeek: z.number().int(),
  weeklyEmission: wei,
  weeklyEmissionFormatted: z.string(),
  rewardRatePerSecond: wei,
  periodFinish: z.number().int(),
  rewardsRemaining: wei,
  aprBps: z.number().nullable(),
})
const positionOut = z.object({ staked: wei, stakedFormatted: z.string(), effectiveStake: wei, earned: wei, earnedFormatted: z.string(), multiplierBps: z.number().int(), allowance: wei })

const venue = (v: VenueStats) => ({
  address: v.address, stakeToken: v.stakeToken, totalStaked: v.totalStaked.toString(), totalStakedFormatted: fmt(v.totalStaked),
  totalEffectiveStake: v.totalEffectiveStake.toString(), currentWeek: Number(v.currentWeek), weeklyEmission: v.weeklyEmission.toString(),
  weeklyEmissionFormatted: fmt(v.weeklyEmission), rewardRatePerSecond: v.rewardRate.toString(), periodFinish: Number(v.periodFinish),
  rewardsRemaining: v.rewardsRemaining.toString(), aprBps: v.aprBps === null ? null : Number(v.aprBps),
})
const position = (p: VenuePosition) => ({
  staked: p.staked.toString(), stakedFormatted: fmt(p.staked), effectiveStake: p.effectiveStake.toString(), earned: p.earned.toString(),
  earnedFormatted: fmt(p.earned), multiplierBps: Number(p.multiplierBps), allowance: p.allowance.toString(),
})

export const getDefiStaking = defineOperation({
  id: 'get_defi_staking',
  limit: 'expensive',
  method: 'GET',
  path: '/api/defi/staking',
  summary: 'Both staking venues (mogger: MEGACHAD, jester: MC/MG LP): stats, and with an address the wallet position',
  tags: ['defi-reads'],
  input: z.object({ address: walletIn('Wallet whose positions to include').optional() }),
  output: z.object({
    chainId: z.number().int(),
    mogger: venueOut,
    jester: venueOut.extend({ pid: z.number().int(), allocPoint: z.string() }),
    wallet: z
      .object({
        address: addressOut,
        nftCount: z.number().int(),
        boostMultiplierBps: z.number().int(),
        eligible: z.boolean(),
        mogger: positionOut,
        jester: positionOut,
      })
      .optional(),
  }),
  errors: ['INVALID_ADDRESS', 'UPSTREAM_FAILED'],
  requires: ['moggerStaking', 'jesterStaking', 'pair'],
  uses: ['chain'],
  async handler(ctx, { address }) {
    const s = await readStaking(ctx.chain, address)
    return {
      chainId: CHAIN_ID,
      mogger: venue(s.mogger),
      jester: { ...venue(s.jester), pid: Number(s.jester.pid), allocPoint: s.jester.allocPoint.toString() },
      ...(s.wallet
        ? {
            wallet: {
              address: s.wallet.address, nftCount: Number(s.wallet.boost.nftCount), boostMultiplierBps: Number(s.wallet.boost.multiplierBps),
              eligible: s.wallet.boost.eligible, mogger: position(s.wallet.mogger), jester: position(s.wallet.jester),
            },
          }
        : {}),
    }
  },
})
