import { z } from 'zod'
import { defineOperation } from '../define.ts'
import { addressOut, chainInfo } from '../schemas.ts'
import { contractCatalog } from '../../chain/contract-catalog.ts'
import type { ContractName } from '../../chain/contract-names.ts'
import {
  BURN_ADDRESS, BURN_HALF_WEI, BURN_TOTAL_WEI, CHAIN_ID, INFRA_FEE_WEI, POOL_FEE, REFERRAL_REWARD_WEI, X402_NETWORK,
} from '../../chain/constants.ts'

const contractEntry = z.object({
  address: addressOut,
  proxy: z.boolean(),
  implementation: addressOut.nullable(),
  label: z.string(),
  kind: z.string(),
  description: z.string(),
  keyFunctions: z.array(z.string()),
  events: z.array(z.string()).optional(),
})

export const getServiceProtocol = defineOperation({
  id: 'get_service_protocol',
  mcp: { tool: 'get_discovery_document', as: 'service_protocol' },
  method: 'GET',
  path: '/.well-known/service-protocol.json',
  summary: 'Contract registry: every deployed contract with its address and key functions',
  description: 'Fetch once and cache. Lists every contract, the protocol constants, the agent endpoints and known gotchas.',
  tags: ['discovery'],
  input: z.object({}),
  output: z.object({
    name: z.string(),
    version: z.string(),
    chain: chainInfo.extend({ explorer: z.string() }),
    contracts: z.record(z.string(), contractEntry),
    constants: z.object({
      burnAddress: addressOut,
      fundWallet: addressOut,
      facilitator: addressOut,
      burnTotalWei: z.string(),
      burnHalfWei: z.string(),
      infraFeeWei: z.string(),
      referralRewardWei: z.string(),
      poolFee: z.number().int(),
      x402Network: z.string(),
    }),
    agentEndpoints: z.array(z.object({ id: z.string(), method: z.string(), path: z.string(), summary: z.string() })),
    gotchas: z.array(z.string()),
  }),
  errors: [],
  cacheSeconds: 3600,
  staleSeconds: 3600,
  uses: ['chain', 'operations'],
  async handler(ctx) {
    const entries = Object.entries(ctx.chain.contracts) as Array<[ContractName, `0x${string}` | undefined]>
    const contracts = Object.fromEntries(
      entries
        .filter((entry): entry is [ContractName, `0x${string}`] => Boolean(entry[1]))
        .map(([name, address]) => [name, { address, proxy: false, implementation: null, ...contractCatalog[name] }]),
    )
    return {
      name: 'burn-to-create',
      version: '1.0.0',
      chain: { ...ctx.chain.info, chainId: CHAIN_ID, explorer: ctx.chain.explorerUrl },
      contracts,
      constants: {
        burnAddress: BURN_ADDRESS,
        fundWallet: ctx.chain.fundWallet,
        facilitator: ctx.chain.facilitator,
        burnTotalWei: BURN_TOTAL_WEI.toString(),
        burnHalfWei: BURN_HALF_WEI.toString(),
        infraFeeWei: INFRA_FEE_WEI.toString(),
        referralRewardWei: REFERRAL_REWARD_WEI.toString(),
        poolFee: POOL_FEE,
        x402Network: X402_NETWORK,
      },
      agentEndpoints: ctx.operations.map((op) => ({ id: op.id, method: op.method, path: op.path, summary: op.summary })),
      gotchas: [
        'Burn with two plain token transfers (dead address, fund wallet) or through the relayer or referral contract; burnToCreate() burns cannot be redeemed.',
        'QuoterV2 functions are nonpayable but must be called with eth_call.',
        'exactInputSingle on this router takes seven fields: there is no deadline field.',
        'Approve the USDm forwarder on USDm once before signing x402 payments.',
        'x402 payments use network "megaeth", asset = the forwarder, and extra {name: "USDm Forwarder", version: "1"}.',
        'Each burn transaction can be redeemed once; a second submission gets 409.',
        'The MC/MG pair uses a tokenA/tokenB layout, not token0/token1: generic V2 routers do not find it.',
      ],
    }
  },
})
