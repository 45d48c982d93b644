import { createPublicClient, http, type PublicClient } from 'viem'
import type { Chain } from '../clients.ts'

/**
 * A client of the chain's RPC whose concurrent calls of one tick travel as one JSON-RPC batch
 * (one HTTP request over a keep-alive connection): the receipts of every transaction a look
 * covers, the broadcasts and gas estimates of concurrent sends.
 */
export function createBatchClient(chain: Chain): PublicClient {
  const url = chain.viemChain.rpcUrls.default.http[0]!
  return createPublicClient({ chain: chain.viemChain, transport: http(url, { batch: { batchSize: 200, wait: 0 }, timeout: chain.rpcTimeoutMs, retryCount: 0, fetchFn: chain.rpcFetch }) }) as PublicClient
}
