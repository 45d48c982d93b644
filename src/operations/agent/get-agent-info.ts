import { z } from 'zod'
import { defineOperation, type Ports } from '../define.ts'
import { addressOut } from '../schemas.ts'
import { identityRegistryAbi, reputationRegistryAbi } from '../../chain/abis/registries.ts'
import { rpcFailed } from '../../chain/upstream-error.ts'
import { CHAIN_ID } from '../../chain/constants.ts'
import { AGENT_IMAGE_PATH } from '../discovery/get-agent-image.ts'
import { receiptKey, receiptKeyOut } from '../discovery/get-receipt-schema.ts'

/** The services named in the registration file, each at version 1.0.0. */
const SERVICES = [
  ['SwapQuote', '/api/x402/quote'],
  ['Looksmaxx', '/api/x402/looksmaxx'],
  ['BurnToCreate', '/api/generate'],
  ['Chadboard', '/api/chadboard'],
  ['Stats', '/api/stats'],
  ['Gallery', '/api/gallery'],
  ['AgentInfo', '/api/agent/info'],
] as const

export const registrationSchema = z.object({
  type: z.string(),
  name: z.string(),
  description: z.string(),
  image: z.string(),
  openapi: z.string(),
  services: z.array(z.object({ name: z.string(), endpoint: z.string(), version: z.string() })),
  x402Support: z.boolean(),
  active: z.boolean(),
  registrations: z.array(z.object({ agentId: z.number().int(), agentRegistry: z.string() })),
  supportedTrust: z.array(z.string()),
  receipts: receiptKeyOut.describe('The key that signs every offer and receipt of the service (x402 offer-receipt and DeliveryReceipt)'),
})

/** The ERC-8004 registration file of the service (the target of its agent URI). */
export function buildRegistration(ctx: Ports<'chain' | 'baseUrl' | 'receipts'>): z.infer<typeof registrationSchema> {
  const base = ctx.baseUrl()
  return {
    type: 'https://eips.ethereum.org/EIPS/eip-8004#registration-v1',
    name: 'MegaChad',
    description: 'Burn-to-create portrait agent: burn 225,000 MEGACHAD, pay 1 USDm with x402, get an AI-enhanced portrait minted as an NFT on MegaETH.',
    image: `${base}${AGENT_IMAGE_PATH}`,
    openapi: `${base}/.well-known/openapi.json`,
    services: SERVICES.map(([name, path]) => ({ name, endpoint: `${base}${path}`, version: '1.0.0' })),
    x402Support: true,
    active: true,
    registrations:
      ctx.chain.agentId !== undefined
        ? [{ agentId: Number(ctx.chain.agentId), agentRegistry: `eip155:${CHAIN_ID}:${ctx.chain.contracts.identityRegistry}` }]
        : [],
    supportedTrust: ['reputation'],
    receipts: receiptKey(ctx),
  }
}

export const getAgentInfo = defineOperation({
  id: 'get_agent_info',
  // HTTP only: the service's own ERC-8004 identity: a discovery document.
  method: 'GET',
  path: '/api/agent/info',
  summary: 'ERC-8004 identity of the service: registration, on-chain record, referral program',
  tags: ['agent'],
  input: z.object({}),
  output: z.object({
    registration: registrationSchema,
    onChain: z.object({
      agentId: z.string().nullable(),
      agentURI: z.string().nullable(),
      owner: z.string().nullable(),
      wallet: z.string().nullable(),
      reputationClients: z.number().int(),
      reputation: z
        .object({ score: z.number().nullable(), count: z.number().int() })
        .describe("getSummary(agentId, getClients(agentId), '', ''): the average (valueDecimals applied) and count of the agent's non-revoked feedback, every tag"),
    }),
    contracts: z.object({ identityRegistry: addressOut, reputationRegistry: addressOut }),
    status: z.enum(['registered', 'pending_registration']),
    referralProgram: z.object({
      description: z.string(),
      rewardPerBurn: z.string(),
      howToRegister: z.string(),
      checkStats: z.string(),
      referralContract: z.string(),
      flow: z.array(z.string()),
    }),
  }),
  errors: ['UPSTREAM_FAILED'],
  cacheSeconds: 30,
  dependsOn: ['profiles'],
  staleSeconds: 60,
  uses: ['chain', 'baseUrl', 'receipts'],
  async handler(ctx) {
    const { contracts, agentId } = ctx.chain
    let onChain = {
      agentId: null as string | null,
      agentURI: null as string | null,
      owner: null as string | null,
      wallet: null as string | null,
      reputationClients: 0,
      reputation: { score: null as number | null, count: 0 },
    }
    if (agentId !== undefined) {
      let results
      try {
        results = await ctx.chain.client.multicall({
          allowFailure: true,
          contracts: [
            { address: contracts.identityRegistry, abi: identityRegistryAbi, functionName: 'tokenURI', args: [agentId] },
            { address: contracts.identityRegistry, abi: identityRegistryAbi, functionName: 'ownerOf', args: [agentId] },
            { address: contracts.identityRegistry, abi: identityRegistryAbi, functionName: 'getAgentWallet', args: [agentId] },
            { address: contracts.reputationRegistry, abi: reputationRegistryAbi, functionName: 'getClients', args: [agentId] },
          ],
        })
      } catch (cause) {
        throw rpcFailed('reading the agent registration', cause)
      }
      const [uri, owner, wallet, clients] = results
      const clientList = clients.status === 'success' ? clients.result : []
      onChain = {
        agentId: agentId.toString(),
        agentURI: uri.status === 'success' ? uri.result : null,
        owner: owner.status === 'success' ? owner.result : null,
        wallet: wallet.status === 'success' ? wallet.result : null,
        reputationClients: clientList.length,
        reputation: await readReputation(ctx, agentId, clientList),
      }
    }
    const base = ctx.baseUrl()
    return {
      registration: buildRegistration(ctx),
      onChain,
      contracts: { identityRegistry: contracts.identityRegistry, reputationRegistry: contracts.reputationRegistry },
      status: onChain.owner ? ('registered' as const) : ('pending_registration' as const),
      referralProgram: {
        description: 'Registered agents earn 11,250 MEGACHAD (5% of the 225,000 burn, paid out of the fund half) for every burn made with their referral.',
        rewardPerBurn: '11,250 MEGACHAD',
        howToRegister: `POST ${base}/api/agent/register with {"wallet": "0x...", "issuedAt": <unix seconds>, "signature": "0x..."} (the wallet's EIP-712 signature of signTypedData from GET ${base}/api/agent/register?address=0x...) and send the returned registerAgent() transaction.`,
        checkStats: `GET ${base}/api/agent/referrals?address=0x...`,
        referralContract: contracts.referral,
        flow: [
          'Register as an agent with the referral contract (one transaction).',
          'Share your referral code or address with users.',
          'Users approve the referral contract and call burnWithReferral(yourAddress).',
          'You receive 11,250 MEGACHAD per burn; the user redeems the burn for a portrait.',
        ],
      },
    }
  },
})

/**
 * The agent's reputation over every client: the deployed registry's getSummary needs the client
 * list (it reverts on an empty one), so it is read after getClients, and only when there is one.
 */
async function readReputation(ctx: Ports<'chain'>, agentId: bigint, clients: readonly `0x${string}`[]) {
  if (clients.length === 0) return { score: null, count: 0 }
  let summary
  try {
    summary = await ctx.chain.client.readContract({ address: ctx.chain.contracts.reputationRegistry, abi: reputationRegistryAbi, functionName: 'getSummary', args: [agentId, clients, '', ''] })
  } catch (cause) {
    throw rpcFailed('reading the agent\'s reputation', cause)
  }
  const [count, value, decimals] = summary
  return { score: count > 0n ? Number(value) / 10 ** decimals : null, count: Number(count) }
}
