import { z } from 'zod'
import { encodeFunctionData, formatUnits, getAddress } from 'viem'
import { defineOperation } from '../define.ts'
import { addressIn, addressOut } from '../schemas.ts'
import { AppError } from '../../errors/app-error.ts'
import { referralAbi } from '../../chain/abis/economy.ts'
import { rpcFailed } from '../../chain/upstream-error.ts'
import { BURN_TOTAL_WEI, CHAIN_ID, TOKEN_SYMBOL } from '../../chain/constants.ts'
import { referralCodeOf } from './referral-code.ts'
import { issuedAtField, requireWalletSignature, signTypedDataOut, signTypedDataTemplate, walletSignatureField } from './wallet-signature.ts'
import type { Context } from '../../context.ts'

async function readAgent(ctx: Context, agent: `0x${string}`) {
  try {
    const [[count, earnings, registered], bps] = await ctx.chain.client.multicall({
      allowFailure: false,
      contracts: [
        { address: ctx.chain.contracts.referral, abi: referralAbi, functionName: 'getAgentStats', args: [agent] },
        { address: ctx.chain.contracts.referral, abi: referralAbi, functionName: 'referralBps' },
      ],
    })
    return { count, earnings, registered, bps }
  } catch (cause) {
    throw rpcFailed('reading the referral contract', cause)
  }
}

/** Remembers a registered agent's code, so the code resolves back to the agent (derived data: anyone may trigger it). */
async function rememberCode(ctx: Context, agent: `0x${string}`) {
  const code = referralCodeOf(agent)
  await ctx.db.query('INSERT INTO referral_codes (code, agent) VALUES ($1, $2) ON CONFLICT (code) DO NOTHING', [code, agent])
  return code
}

/**
 * Stores what the agent signed (endpoint, description). A newer signed write replaces an older
 * one (an omitted field keeps its signed value); a row nobody signed is replaced whole; an
 * older signature (a replay) changes nothing.
 */
async function storeSignedProfile(ctx: Context, agent: `0x${string}`, profile: { mcpEndpoint?: string; description?: string; signature: string; issuedAt: number }) {
  const code = referralCodeOf(agent)
  await ctx.db.query(
    `INSERT INTO referral_codes (code, agent, mcp_endpoint, description, signature, signed_at) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (code) DO UPDATE SET
       mcp_endpoint = CASE WHEN referral_codes.signature IS NULL THEN EXCLUDED.mcp_endpoint ELSE coalesce(EXCLUDED.mcp_endpoint, referral_codes.mcp_endpoint) END,
       description = CASE WHEN referral_codes.signature IS NULL THEN EXCLUDED.description ELSE coalesce(EXCLUDED.description, referral_codes.description) END,
       signature = EXCLUDED.signature,
       signed_at = EXCLUDED.signed_at
     WHERE referral_codes.signed_at IS NULL OR referral_codes.signed_at < EXCLUDED.signed_at`,
    [code, agent, profile.mcpEndpoint ?? null, profile.description ?? null, profile.signature, profile.issuedAt],
  )
  return code
}

const stats = z.object({ referralCount: z.number().int(), totalEarnings: z.string(), totalEarningsFormatted: z.string() })
const toStats = (s: { count: bigint; earnings: bigint }) => ({
  referralCount: Number(s.count),
  totalEarnings: s.earnings.toString(),
  totalEarningsFormatted: `${Number(formatUnits(s.earnings, 18)).toLocaleString('en-US')} ${TOKEN_SYMBOL}`,
})

export const getAgentRegistration = defineOperation({
  id: 'get_referral_agent',
  limit: 'expensive',
  // HTTP only: get_referrals answers registered, code and earnings.
  mcp: false,
  method: 'GET',
  path: '/api/agent/register',
  summary: 'Whether an address is a registered referral agent, its code and its earnings',
  tags: ['economy'],
  input: z.object({ address: addressIn('Agent wallet') }),
  output: z.object({
    agent: addressOut,
    registered: z.boolean(),
    referralCode: z.string().nullable(),
    stats,
    referralContract: addressOut,
    signTypedData: signTypedDataOut.describe('What the wallet signs to POST /api/agent/register (signature, issuedAt)'),
  }),
  errors: ['INVALID_ADDRESS', 'UPSTREAM_FAILED'],
  cacheSeconds: 2,
  dependsOn: ['referral'],
  async handler(ctx, { address }) {
    const agent = await readAgent(ctx, address)
    return {
      agent: address,
      registered: agent.registered,
      referralCode: agent.registered ? await rememberCode(ctx, address) : null,
      stats: toStats(agent),
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

export const registerReferralAgent = defineOperation({
  id: 'register_referral_agent',
  invalidates: ['referral'],
  method: 'POST',
  path: '/api/agent/register',
  summary: 'Become a referral agent: the registerAgent() transaction to send, and your code',
  description: 'Only the wallet may register itself: signature is its EIP-712 ReferralAgentRegistration over mcpEndpoint and description as sent (omitted ones as "") and issuedAt (see signTypedData in GET /api/agent/register); a missing or foreign signature is 400 INVALID_SIGNATURE. Earn 11,250 tokens (5% of the burn, out of the fund half) for each burn made with your referral. Send the returned transaction from the wallet; the code works once it is mined.',
  tags: ['economy'],
  input: z.object({
    wallet: addressIn('Agent wallet'),
    mcpEndpoint: z.url().max(500).optional().describe('Your MCP server, shown to users'),
    description: z.string().max(500).optional(),
    signature: walletSignatureField.describe('EIP-712 ReferralAgentRegistration signed by wallet (see GET /api/agent/register)'),
    issuedAt: issuedAtField,
  }),
  output: z.object({
    agent: addressOut,
    alreadyRegistered: z.boolean(),
    referralCode: z.string(),
    registration: z.object({
      description: z.string(),
      transaction: z.object({ to: addressOut, data: z.string(), chainId: z.number().int(), value: z.string() }).nullable(),
    }),
    afterRegistration: z.object({
      referralCode: z.string(),
      howItWorks: z.array(z.string()),
      earnings: z.object({ perBurn: z.string(), percentage: z.string() }),
    }),
  }),
  errors: ['INVALID_ADDRESS', 'INVALID_SIGNATURE', 'SIGNATURE_EXPIRED', 'UPSTREAM_FAILED'],
  async handler(ctx, { wallet, mcpEndpoint, description, issuedAt, signature }) {
    await requireWalletSignature({
      primaryType: 'ReferralAgentRegistration',
      wallet,
      message: { mcpEndpoint: mcpEndpoint ?? '', description: description ?? '' },
      issuedAt,
      signature,
    })
    const agent = await readAgent(ctx, wallet)
    const code = await storeSignedProfile(ctx, wallet, { mcpEndpoint, description, signature, issuedAt })
    const reward = (BURN_TOTAL_WEI - BURN_TOTAL_WEI / 2n) * agent.bps / 10_000n
    return {
      agent: wallet,
      alreadyRegistered: agent.registered,
      referralCode: code,
      registration: {
        description: agent.registered ? 'Already registered: nothing to send.' : 'Send this transaction from your wallet to register with the referral contract.',
        transaction: agent.registered
          ? null
          : { to: ctx.chain.contracts.referral, data: encodeFunctionData({ abi: referralAbi, functionName: 'registerAgent' }), chainId: CHAIN_ID, value: '0' },
      },
      afterRegistration: {
        referralCode: code,
        howItWorks: [
          `Share your code ${code} (or your address).`,
          `A user approves the referral contract ${ctx.chain.contracts.referral} for 225,000 tokens.`,
          'The user calls burnWithReferral(yourAddress): 112,500 to the dead address, the rest to the fund, your reward to you.',
          'The user redeems the burn transaction for a portrait (its hash as both burnTxHash and devTxHash).',
        ],
        earnings: { perBurn: `${Number(formatUnits(reward, 18)).toLocaleString('en-US')} ${TOKEN_SYMBOL}`, percentage: `${Number(agent.bps) / 100}% of the fund half` },
      },
    }
  },
})

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
    stats,
    rewardInfo: z.object({ currentBps: z.number().int(), percentageOfTrenFund: z.string(), rewardPerBurn: z.string(), rewardPerBurnRaw: z.string() }),
    burnWithReferralCalldata: z.string().nullable(),
    referralContract: addressOut,
  }),
  errors: ['INVALID_ADDRESS', 'NOT_FOUND', 'UPSTREAM_FAILED'],
  cacheSeconds: 2,
  dependsOn: ['referral'],
  async handler(ctx, { address, referralCode }) {
    let agentAddress = address
    if (!agentAddress) {
      if (!referralCode) throw new AppError('INVALID_INPUT', 'Give address or referralCode.', { details: { field: 'address' } })
      const { rows } = await ctx.db.query<{ agent: string }>('SELECT agent FROM referral_codes WHERE code = $1', [referralCode])
      if (!rows[0]) throw new AppError('NOT_FOUND', `No agent has the referral code ${referralCode}.`)
      agentAddress = getAddress(rows[0].agent)
    }
    const agent = await readAgent(ctx, agentAddress)
    const reward = (BURN_TOTAL_WEI - BURN_TOTAL_WEI / 2n) * agent.bps / 10_000n
    return {
      agent: agentAddress,
      registered: agent.registered,
      referralCode: agent.registered ? await rememberCode(ctx, agentAddress) : null,
      stats: toStats(agent),
      rewardInfo: {
        currentBps: Number(agent.bps),
        percentageOfTrenFund: `${Number(agent.bps) / 100}%`,
        rewardPerBurn: `${Number(formatUnits(reward, 18)).toLocaleString('en-US')} ${TOKEN_SYMBOL}`,
        rewardPerBurnRaw: reward.toString(),
      },
      burnWithReferralCalldata: agent.registered ? encodeFunctionData({ abi: referralAbi, functionName: 'burnWithReferral', args: [agentAddress] }) : null,
      referralContract: ctx.chain.contracts.referral,
    }
  },
})
