import { z } from 'zod'
import { formatUnits } from 'viem'
import { defineOperation } from '../define.ts'
import { addressIn, addressOut, webLink } from '../schemas.ts'
import { readReferralAgent } from '../../chain/reads/read-referral-agent.ts'
import { buildRegisterAgent } from '../../chain/builders/build-register-agent.ts'
import { BURN_TOTAL_WEI, CHAIN_ID, TOKEN_SYMBOL } from '../../chain/constants.ts'
import { storeSignedAgentProfile } from '../../store/referral-codes.ts'
import { issuedAtField, requireWalletSignature, walletSignatureFor } from '../wallet-signature.ts'
import { referralCodeOf } from './referral-code.ts'
import { simulateForCaller, simulationOut } from '../plan-simulation.ts'

export const registerReferralAgent = defineOperation({
  id: 'register_referral_agent',
  destructive: true,
  idempotent: true,
  invalidates: ['referral'],
  method: 'POST',
  path: '/api/agent/register',
  summary: 'Become a referral agent: the registerAgent() transaction to send, and your code',
  description: 'Only the wallet may register itself: signature is its EIP-712 ReferralAgentRegistration over mcpEndpoint and description as sent (omitted ones as "") and issuedAt (see signTypedData in GET /api/agent/register); a missing or foreign signature is 400 INVALID_SIGNATURE. Earn 11,250 tokens (5% of the burn, out of the fund half) for each burn made with your referral. Send the returned transaction from the wallet; the code works once it is mined. The transaction is simulated from the wallet (simulation); one that would fail is marked executable false with the reason.',
  tags: ['economy'],
  input: z.object({
    wallet: addressIn('Agent wallet'),
    mcpEndpoint: webLink(500).optional().describe('Your MCP server, shown to users'),
    description: z.string().max(500).optional(),
    signature: walletSignatureFor('ReferralAgentRegistration'),
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
    simulation: simulationOut.nullable().describe('registerAgent() simulated from the wallet (null when already registered)'),
  }),
  errors: ['INVALID_ADDRESS', 'INVALID_SIGNATURE', 'SIGNATURE_EXPIRED', 'UPSTREAM_FAILED'],
  uses: ['chain', 'db', 'clock'],
  async handler(ctx, { wallet, mcpEndpoint, description, issuedAt, signature }) {
    await requireWalletSignature({
      primaryType: 'ReferralAgentRegistration',
      wallet,
      message: { mcpEndpoint: mcpEndpoint ?? '', description: description ?? '' },
      issuedAt,
      signature,
      nowSeconds: Math.floor(ctx.clock() / 1000),
    })
    const agent = await readReferralAgent(ctx.chain, wallet)
    const code = referralCodeOf(wallet)
    const transaction = agent.registered ? null : buildRegisterAgent({ referral: ctx.chain.contracts.referral, chainId: CHAIN_ID })
    const simulation = await simulateForCaller(ctx.chain, wallet, transaction ? [{ ...transaction, functionName: 'registerAgent' }] : [], 'mark')
    await storeSignedAgentProfile(ctx.db, code, wallet, { mcpEndpoint, description, signature, issuedAt })
    const reward = (BURN_TOTAL_WEI - BURN_TOTAL_WEI / 2n) * agent.bps / 10_000n
    return {
      agent: wallet,
      alreadyRegistered: agent.registered,
      referralCode: code,
      registration: {
        description: agent.registered ? 'Already registered: nothing to send.' : 'Send this transaction from your wallet to register with the referral contract.',
        transaction,
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
      simulation,
    }
  },
})

