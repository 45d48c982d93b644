import { z } from 'zod'
import { formatUnits, getAddress } from 'viem'
import { defineOperation } from '../define.ts'
import { addressIn, addressOut } from '../schemas.ts'
import { AppError } from '../../errors/app-error.ts'
import { readReferralAgent } from '../../chain/reads/read-referral-agent.ts'
import { buildBurnWithReferral } from '../../chain/builders/build-burn-with-referral.ts'
import { BURN_TOTAL_WEI, TOKEN_SYMBOL } from '../../chain/constants.ts'
import { findAgentByReferralCode } from '../../store/referral-codes.ts'
import { referralStats, shownCode, toReferralStats } from './referral-stats.ts'

export const getReferrals = defineOperation({
  id: 'get_referrals',
  limit: 'expensive',
  method: 'GET',
  path: '/api/agent/referrals',
  summary: 'Referral stats of an agent (by address or code), reward info and the calldata to burn with its referral',
  tags: ['economy'],
  input: z.object({
    address: addressIn('Agent wallet').optional(),
    referralCode: z.string().regex(/^[A-Za-z0-9_-]{12}$/, { error: 'must be a 12-character referral code' }).optional(),
  }),
  output: z.object({
    agent: addressOut,
    registered: z.boolean(),
    referralCode: z.string().nullable(),
    stats: referralStats,
    rewardInfo: z.object({ currentBps: z.number().int(), percentageOfTrenFund: z.string(), rewardPerBurn: z.string(), rewardPerBurnRaw: z.string() }),
    burnWithReferralCalldata: z.string().nullable(),
    referralContract: addressOut,
  }),
  errors: ['INVALID_ADDRESS', 'NOT_FOUND', 'UPSTREAM_FAILED'],
  cacheSeconds: 2,
  dependsOn: ['referral'],
  uses: ['chain', 'db'],
  async handler(ctx, { address, referralCode }) {
    let agentAddress = address
    if (!agentAddress) {
      if (!referralCode) throw new AppError('INVALID_INPUT', 'Give address or referralCode.', { details: { field: 'address' } })
      const stored = await findAgentByReferralCode(ctx.db, referralCode)
      if (!stored) throw new AppError('NOT_FOUND', `No agent has the referral code ${referralCode}.`)
      agentAddress = getAddress(stored)
    }
    const agent = await readReferralAgent(ctx.chain, agentAddress)
    const reward = (BURN_TOTAL_WEI - BURN_TOTAL_WEI / 2n) * agent.bps / 10_000n
    return {
      agent: agentAddress,
      registered: agent.registered,
      referralCode: await shownCode(ctx.db, agentAddress, agent.registered),
      stats: toReferralStats(agent),
      rewardInfo: {
        currentBps: Number(agent.bps),
        percentageOfTrenFund: `${Number(agent.bps) / 100}%`,
        rewardPerBurn: `${Number(formatUnits(reward, 18)).toLocaleString('en-US')} ${TOKEN_SYMBOL}`,
        rewardPerBurnRaw: reward.toString(),
      },
      burnWithReferralCalldata: agent.registered ? buildBurnWithReferral(agentAddress) : null,
      referralContract: ctx.chain.contracts.referral,
    }
  },
})
