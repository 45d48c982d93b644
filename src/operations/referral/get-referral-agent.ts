import { z } from 'zod'
import { defineOperation } from '../define.ts'
import { addressIn, addressOut } from '../schemas.ts'
import { readReferralAgent } from '../../chain/reads/read-referral-agent.ts'
import { signTypedDataOut, signTypedDataTemplate } from '../wallet-signature.ts'
import { referralStats, shownCode, toReferralStats } from './referral-stats.ts'

export const getReferralAgent = defineOperation({
  id: 'get_referral_agent',
  limit: 'expensive',
  // HTTP only: get_referrals answers registered, code and earnings.
  mcp: { tool: 'get_registration_form', as: 'referral_agent' },
  method: 'GET',
  path: '/api/agent/register',
  summary: 'Whether an address is a registered referral agent, its code and its earnings',
  tags: ['economy'],
  input: z.object({ address: addressIn('Agent wallet') }),
  output: z.object({
    agent: addressOut,
    registered: z.boolean(),
    referralCode: z.string().nullable(),
    stats: referralStats,
    referralContract: addressOut,
    signTypedData: signTypedDataOut.describe('What the wallet signs to POST /api/agent/register (signature, issuedAt)'),
  }),
  errors: ['INVALID_ADDRESS', 'UPSTREAM_FAILED'],
  cacheSeconds: 2,
  dependsOn: ['referral'],
  uses: ['chain', 'db'],
  async handler(ctx, { address }) {
    const agent = await readReferralAgent(ctx.chain, address)
    return {
      agent: address,
      registered: agent.registered,
      referralCode: await shownCode(ctx.db, address, agent.registered),
      stats: toReferralStats(agent),
      referralContract: ctx.chain.contracts.referral,
      signTypedData: signTypedDataTemplate('ReferralAgentRegistration', {
        wallet: address,
        mcpEndpoint: '<mcpEndpoint as sent, or "">',
        description: '<description as sent, or "">',
        issuedAt: '<unix seconds now; the issuedAt field>',
      }),
    }
  },
})

