import { z } from 'zod'
import { formatEther, formatUnits, parseEther, parseUnits } from 'viem'
import { defineOperation } from '../define.ts'
import { addressOut, chainInfo, isoTimestamp } from '../schemas.ts'
import { readPoolQuotes } from '../../chain/reads/read-pool-quotes.ts'
import { AppError } from '../../errors/app-error.ts'
import { BURN_TOTAL_TOKENS, POOL_FEE, TOKEN_DECIMALS, TOKEN_SYMBOL } from '../../chain/constants.ts'

const ONE_ETH = parseEther('1')
const ONE_MILLION_COIN = parseUnits('1000000', TOKEN_DECIMALS)

export const getPrice = defineOperation({
  id: 'get_price',
  method: 'GET',
  path: '/api/price',
  summary: 'Service-token price in ETH from the DEX, and what a burn costs',
  description:
    'Quotes 1 ETH into the token and 1,000,000 tokens back into ETH on the pool (one RPC round trip). The estimate includes the 1% pool fee and the price impact of a 1 ETH trade.',
  tags: ['market'],
  input: z.object({}),
  output: z.object({
    price: z.object({
      coinPerEth: z.number(),
      ethPerCoin: z.number(),
      ethPerMillionCoin: z.string().nullable(),
    }),
    burnCost: z.object({
      tokensRequired: z.number().int(),
      estimatedEth: z.number(),
      infraFeeUsdm: z.number().int(),
    }),
    timestamp: isoTimestamp,
    token: z.object({ address: addressOut, symbol: z.string(), decimals: z.number().int() }),
    pool: z.object({
      address: addressOut,
      dex: z.string(),
      feeTier: z.number().int(),
      pair: z.string(),
      quoter: addressOut,
    }),
    chain: chainInfo,
  }),
  errors: ['DEX_QUOTE_FAILED', 'UPSTREAM_FAILED'],
  cacheSeconds: 5,
  dependsOn: ['pool'],
  uses: ['chain', 'clock'],
  async handler(ctx) {
    const { contracts } = ctx.chain
    const [buy, sell] = await readPoolQuotes(ctx.chain, [
      { tokenIn: contracts.weth, tokenOut: contracts.token, amountIn: ONE_ETH },
      { tokenIn: contracts.token, tokenOut: contracts.weth, amountIn: ONE_MILLION_COIN },
    ])
    if (!buy) throw new AppError('DEX_QUOTE_FAILED', 'The DEX could not quote 1 ETH into the token.', { retryable: true })
    const coinPerEth = Number(formatUnits(buy.amountOut, TOKEN_DECIMALS))
    const ethPerCoin = coinPerEth > 0 ? 1 / coinPerEth : 0
    return {
      price: { coinPerEth, ethPerCoin, ethPerMillionCoin: sell ? formatEther(sell.amountOut) : null },
      burnCost: { tokensRequired: BURN_TOTAL_TOKENS, estimatedEth: ethPerCoin * BURN_TOTAL_TOKENS, infraFeeUsdm: 1 },
      timestamp: new Date(ctx.clock()).toISOString(),
      token: { address: contracts.token, symbol: TOKEN_SYMBOL, decimals: TOKEN_DECIMALS },
      pool: {
        address: contracts.pool,
        dex: 'Kumbaya',
        feeTier: POOL_FEE,
        pair: `${TOKEN_SYMBOL}/WETH`,
        quoter: contracts.quoterV2,
      },
      chain: ctx.chain.info,
    }
  },
})
