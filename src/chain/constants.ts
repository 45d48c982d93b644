/** Protocol constants fixed by the interface specification. */
export const CHAIN_ID = 4326
export const CHAIN_NAME = 'MegaETH'
/** x402 v1 network name of the chain. */
export const X402_NETWORK = 'megaeth'
export const TOKEN_DECIMALS = 18
export const BURN_ADDRESS = '0x000000000000000000000000000000000000dEaD' as const
export const BURN_TOTAL_TOKENS = 225_000
export const BURN_TOTAL_WEI = 225_000n * 10n ** 18n
/** Each leg of a burn: to the dead address and to the fund wallet. */
export const BURN_HALF_WEI = BURN_TOTAL_WEI / 2n
export const REFERRAL_REWARD_WEI = 11_250n * 10n ** 18n
export const INFRA_FEE_WEI = 10n ** 18n
/** The only pool fee tier the service quotes (1 %), as on the real deployment. */
export const POOL_FEE = 10_000
export const QUOTE_SLIPPAGE_BPS = 200n
export const PUBLIC_MAINNET_RPC = 'https://mainnet.megaeth.com/rpc'
export const TOKEN_SYMBOL = 'MEGACHAD'
/** Uniswap's Permit2, at the same address on every chain (MegaETH included). */
export const PERMIT2_ADDRESS = '0x000000000022D473030F116dDEE9F6B43aC78BA3' as const
/** The x402 `exact` scheme's Permit2 spender: moves exactly the signed amount to the signed payee. */
export const X402_EXACT_PERMIT2_PROXY = '0x402085c248EeA27D92E8b30b2C58ed07f9E20001' as const
