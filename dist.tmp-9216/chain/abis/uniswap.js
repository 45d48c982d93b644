import { parseAbi } from 'viem';
/**
 * QuoterV2 of a Uniswap V3 deployment (Kumbaya on chain 4326). Its quote functions are
 * nonpayable on chain (they revert internally to measure the swap) but are only ever
 * simulated with eth_call; declaring them `view` lets viem batch them through Multicall3.
 * The selector does not depend on mutability.
 */
export const quoterV2Abi = parseAbi([
    'function quoteExactInputSingle((address tokenIn, address tokenOut, uint256 amountIn, uint24 fee, uint160 sqrtPriceLimitX96) params) view returns (uint256 amountOut, uint160 sqrtPriceX96After, uint32 initializedTicksCrossed, uint256 gasEstimate)',
    'function quoteExactOutputSingle((address tokenIn, address tokenOut, uint256 amount, uint24 fee, uint160 sqrtPriceLimitX96) params) view returns (uint256 amountIn, uint160 sqrtPriceX96After, uint32 initializedTicksCrossed, uint256 gasEstimate)',
]);
/** SwapRouter02: `exactInputSingle` takes the seven-field struct (no deadline). */
export const swapRouter02Abi = parseAbi([
    'function exactInputSingle((address tokenIn, address tokenOut, uint24 fee, address recipient, uint256 amountIn, uint256 amountOutMinimum, uint160 sqrtPriceLimitX96) params) payable returns (uint256 amountOut)',
]);
export const uniswapV3PoolAbi = parseAbi([
    'function token0() view returns (address)',
    'function token1() view returns (address)',
    'function fee() view returns (uint24)',
    'function liquidity() view returns (uint128)',
    'function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16 observationIndex, uint16 observationCardinality, uint16 observationCardinalityNext, uint8 feeProtocol, bool unlocked)',
]);
//# sourceMappingURL=uniswap.js.map