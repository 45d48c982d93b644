import { z } from 'zod'
import { defineOperation } from '../define.ts'
import { addressOut } from '../schemas.ts'
import { signTypedDataOut, signTypedDataTemplate } from '../wallet-signature.ts'
import { INSTANT_ACCESS_NFTS } from './register-early-access.ts'

export const getEarlyAccessInfo = defineOperation({
  id: 'get_early_access',
  // HTTP only: static description of the testnet beta.
  mcp: { tool: 'get_registration_form', as: 'early_access' },
  method: 'GET',
  path: '/api/early/register',
  summary: 'How early access (testnet beta) works and who is eligible',
  tags: ['economy'],
  input: z.object({}),
  output: z.object({
    name: z.string(),
    description: z.string(),
    eligibility: z.object({ instantAccess: z.string(), referralPath: z.string() }),
    registration: z.object({
      method: z.string(),
      endpoint: z.string(),
      contentType: z.string(),
      body: z.record(z.string(), z.string()),
      signTypedData: signTypedDataOut,
    }),
    contracts: z.object({ token: addressOut, nft: addressOut, chain: z.string(), rpc: z.string() }),
  }),
  errors: [],
  cacheSeconds: 300,
  uses: ['chain', 'baseUrl'],
  async handler(ctx) {
    return {
      name: 'MegaChad early access',
      description: 'Register a wallet for the testnet beta. Eligibility is read from the chain.',
      eligibility: {
        instantAccess: `${INSTANT_ACCESS_NFTS}+ looksmaxxed NFTs`,
        referralPath: 'any token balance or 1+ looksmaxxed NFT; invite others with your referral code',
      },
      registration: {
        method: 'POST',
        endpoint: `${ctx.baseUrl()}/api/early/register`,
        contentType: 'application/json',
        body: {
          wallet: '0x… (required)',
          twitter: '@handle (optional)',
          tweetUrl: 'https://… (optional)',
          referralCode: 'a code you were given (optional)',
          issuedAt: 'unix seconds when you signed (required; accepted for 10 minutes)',
          signature: 'EIP-712 signature of signTypedData by the wallet (required)',
        },
        signTypedData: signTypedDataTemplate('EarlyAccessRegistration', {
          wallet: '<wallet>',
          twitter: '<twitter as sent, or "">',
          tweetUrl: '<tweetUrl as sent, or "">',
          referralCode: '<referralCode as sent, or "">',
          issuedAt: '<issuedAt>',
        }),
      },
      contracts: { token: ctx.chain.contracts.token, nft: ctx.chain.contracts.nft, chain: `${ctx.chain.info.name} (${ctx.chain.info.chainId})`, rpc: ctx.chain.info.rpc },
    }
  },
})

