import { encodeFunctionData } from 'viem';
import { swapRouter02Abi } from "../abis/uniswap.js";
import { POOL_FEE, QUOTE_SLIPPAGE_BPS } from "../constants.js";
/** Minimum output after the quote slippage (2 %), rounded down. */
export function applySlippage(amountOut, slippageBps = QUOTE_SLIPPAGE_BPS) {
    return (amountOut * (10000n - slippageBps)) / 10000n;
}
/**
 * The `exactInputSingle` parameters that buy the service token with native ETH: the router
 * wraps `value` into WETH, so tokenIn is WETH and value equals amountIn.
 */
export function buildBuySwapParams(args) {
    return {
        tokenIn: args.weth,
        tokenOut: args.token,
        fee: POOL_FEE,
        recipient: args.recipient,
        amountIn: args.amountIn,
        amountOutMinimum: applySlippage(args.quotedOut),
        sqrtPriceLimitX96: 0n,
    };
}
/** Calldata of `exactInputSingle` for a concrete recipient. */
export function encodeExactInputSingle(params) {
    return encodeFunctionData({ abi: swapRouter02Abi, functionName: 'exactInputSingle', args: [params] });
}
//# sourceMappingURL=build-swap.js.map