import { encodeFunctionData } from 'viem'
import { swapRouter02Abi } from '../abis/uniswap.ts'
import { POOL_FEE, QUOTE_SLIPPAGE_BPS } from '../constants.ts'

export type SwapParams = {
  tokenIn: `0x${string}`
  tokenOut: `0x${string}`
  fee: number
  recipient: string
  amountIn: bigint
  amountOutMinimum: bigint
  sqrtPriceLimitX96: bigint
}

/** Minimum output after the quote slippage (2 %), rounded down. */
export function applySlippage(amountOut: bigint, slippageBps = QUOTE_SLIPPAGE_BPS): bigint {
  return (amountOut * (10_000n - slippageBps)) / 10_000n
}

/**
 * The `exactInputSingle` parameters that buy the service token with native ETH: the router
 * wraps `value` into WETH, so tokenIn is WETH and value equals amountIn.
 */
export function buildBuySwapParams(args: {
  weth: `0x${string}`
  token: `0x${string}`
  amountIn: bigint
  quotedOut: bigint
  recipient: string
}): SwapParams {
  return {
    tokenIn: args.weth,
    tokenOut: args.token,
    fee: POOL_FEE,
    recipient: args.recipient,
    amountIn: args.amountIn,
    amountOutMinimum: applySlippage(args.quotedOut),
    sqrtPriceLimitX96: 0n,
  }
}

/** Calldata of `exactInputSingle` for a concrete recipient. */
export function encodeExactInputSingle(params: SwapParams & { recipient: `0x${string}` }): `0x${string}` {
  return encodeFunctionData({ abi: swapRouter02Abi, functionName: 'exactInputSingle', args: [params] })
}
