import { BaseError } from 'viem'
import type { Chain } from '../clients.ts'
import { quoterV2Abi } from '../abis/uniswap.ts'
import { POOL_FEE } from '../constants.ts'
import { rpcFailed } from '../upstream-error.ts'

function isRevert(error: unknown): boolean {
  for (let current: any = error, depth = 0; current && depth < 10; current = current.cause, depth++) {
    if (current instanceof BaseError && current.name === 'ContractFunctionRevertedError') return true
    if (current?.name === 'ContractFunctionRevertedError' || current?.code === 3) return true
  }
  return false
}

export type PoolQuote = { amountIn: bigint; amountOut: bigint; gasEstimate: bigint }

export type QuoteRequest = { tokenIn: `0x${string}`; tokenOut: `0x${string}`; amountIn: bigint }

/**
 * Quotes several exact-input swaps on the service pool in one eth_call (Multicall3).
 * A quote the pool cannot fill comes back as null; an RPC failure throws UPSTREAM_FAILED.
 */
export async function readPoolQuotes(chain: Chain, requests: QuoteRequest[]): Promise<Array<PoolQuote | null>> {
  let results
  try {
    results = await chain.client.multicall({
      allowFailure: true,
      contracts: requests.map((r) => ({
        address: chain.contracts.quoterV2,
        abi: quoterV2Abi,
        functionName: 'quoteExactInputSingle' as const,
        args: [{ tokenIn: r.tokenIn, tokenOut: r.tokenOut, amountIn: r.amountIn, fee: POOL_FEE, sqrtPriceLimitX96: 0n }] as const,
      })),
    })
  } catch (cause) {
    throw rpcFailed('quoting the DEX', cause)
  }
  // With allowFailure, viem reports a dead RPC as a failure of every call: tell it apart
  // from the quoter reverting (a pool that cannot fill the trade).
  const failures = results.filter((r) => r.status !== 'success')
  if (failures.length && failures.every((r) => !isRevert(r.error))) throw rpcFailed('quoting the DEX', failures[0]!.error)
  return results.map((result, i) => {
    if (result.status !== 'success') return null
    const [amountOut, , , gasEstimate] = result.result as readonly [bigint, bigint, number, bigint]
    if (amountOut === 0n) return null
    return { amountIn: requests[i]!.amountIn, amountOut, gasEstimate }
  })
}
