import { createPublicClient, defineChain, http, type PublicClient, type Chain as ViemChain } from 'viem'
import { CHAIN_ID, CHAIN_NAME } from './constants.ts'
import type { ContractAddresses } from './contract-names.ts'

export type ChainInfo = { name: string; chainId: number; rpc: string }

/** Everything the service knows about the chain it runs against. */
export type Chain = {
  client: PublicClient
  viemChain: ViemChain
  /** What responses announce as `chain`: name, id and the public RPC URL. */
  info: ChainInfo
  explorerUrl: string
  contracts: ContractAddresses
  fundWallet: `0x${string}`
  /** The x402 payTo address. */
  facilitator: `0x${string}`
  /** ERC-8004 agent ID of the service, or undefined while it is not registered. */
  agentId?: bigint
  /** JSON-RPC HTTP requests sent so far (a batch or a multicall counts once). */
  rpcRequestCount(): number
  /** Of those, how many failed at the transport: no answer, or an HTTP status other than 2xx. */
  rpcErrorCount(): number
}

export type CreateChainOptions = {
  rpcUrl: string
  publicRpcUrl: string
  explorerUrl: string
  contracts: ContractAddresses
  fundWallet: `0x${string}`
  facilitator: `0x${string}`
  agentId?: bigint
}

export function createViemChain(rpcUrl: string, explorerUrl: string, multicall3: `0x${string}`): ViemChain {
  return defineChain({
    id: CHAIN_ID,
    name: CHAIN_NAME,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
    blockExplorers: { default: { name: 'MegaExplorer', url: explorerUrl } },
    contracts: { multicall3: { address: multicall3 } },
  })
}

export function createChain(options: CreateChainOptions): Chain {
  let requests = 0
  let errors = 0
  const viemChain = createViemChain(options.rpcUrl, options.explorerUrl, options.contracts.multicall3)
  const client = createPublicClient({
    chain: viemChain,
    transport: http(options.rpcUrl, {
      timeout: 10_000,
      retryCount: 1,
      onFetchRequest: () => {
        requests++
      },
      fetchFn: async (input, init) => {
        try {
          const response = await fetch(input, init)
          if (!response.ok) errors++
          return response
        } catch (error) {
          errors++
          throw error
        }
      },
    }),
  }) as PublicClient
  return {
    client,
    viemChain,
    info: { name: CHAIN_NAME, chainId: CHAIN_ID, rpc: options.publicRpcUrl },
    explorerUrl: options.explorerUrl.replace(/\/$/, ''),
    contracts: options.contracts,
    fundWallet: options.fundWallet,
    facilitator: options.facilitator,
    agentId: options.agentId,
    rpcRequestCount: () => requests,
    rpcErrorCount: () => errors,
  }
}
