import { createPublicClient, defineChain, http, type PublicClient, type Chain as ViemChain } from 'viem'
import { CHAIN_ID, CHAIN_NAME } from './constants.ts'
import type { ContractAddresses } from './contract-names.ts'
import { createResilientFetch, type RetryPolicy } from './resilient-fetch.ts'

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
  /** The fetch of every HTTP client of the RPC: one Retry-After pause and one count for all of them. */
  rpcFetch: typeof fetch
  /** Longest wait of one call through `rpcFetch`, retries included (viem's timeout). */
  rpcTimeoutMs: number
  /** JSON-RPC HTTP requests sent so far (a batch or a multicall counts once). */
  rpcRequestCount(): number
  /** Of those, how many failed at the transport: no answer, or an HTTP status other than 2xx. */
  rpcErrorCount(): number
  /** Of those, how many were tried again (after a 429, a 5xx, a timeout or a dropped connection). */
  rpcRetryCount(): number
}

/** Defaults of RPC_TIMEOUT_MS, RPC_RETRIES, RPC_RETRY_BASE_MS, RPC_RETRY_MAX_MS. */
export const DEFAULT_RETRY: RetryPolicy = { attemptTimeoutMs: 10_000, retries: 4, baseDelayMs: 250, maxDelayMs: 10_000 }

export type CreateChainOptions = {
  rpcUrl: string
  publicRpcUrl: string
  explorerUrl: string
  contracts: ContractAddresses
  fundWallet: `0x${string}`
  facilitator: `0x${string}`
  agentId?: bigint
  retry?: RetryPolicy
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
  let retries = 0
  const retry = options.retry ?? DEFAULT_RETRY
  const viemChain = createViemChain(options.rpcUrl, options.explorerUrl, options.contracts.multicall3)
  const rpcFetch = createResilientFetch(retry, {
    request: () => void requests++,
    error: () => void errors++,
    retry: () => void retries++,
  })
  const rpcTimeoutMs = (retry.attemptTimeoutMs + retry.maxDelayMs) * (retry.retries + 1)
  const client = createPublicClient({
    chain: viemChain,
    transport: http(options.rpcUrl, {
      // Attempts, waits and retries are the fetch's (resilient-fetch.ts); viem's own would
      // repeat blindly, sends and capped eth_getLogs (-32005) included.
      timeout: rpcTimeoutMs,
      retryCount: 0,
      fetchFn: rpcFetch,
    }),
  }) as PublicClient
  return {
    client,
    viemChain,
    rpcFetch,
    rpcTimeoutMs,
    info: { name: CHAIN_NAME, chainId: CHAIN_ID, rpc: options.publicRpcUrl },
    explorerUrl: options.explorerUrl.replace(/\/$/, ''),
    contracts: options.contracts,
    fundWallet: options.fundWallet,
    facilitator: options.facilitator,
    agentId: options.agentId,
    rpcRequestCount: () => requests,
    rpcErrorCount: () => errors,
    rpcRetryCount: () => retries,
  }
}
