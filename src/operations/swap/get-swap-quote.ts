import { z } from 'zod'
import { formatEther, formatUnits } from 'viem'
import { defineOperation } from '../define.ts'
import { addressIn, addressOut, chainInfo, hexData, wei } from '../schemas.ts'
import { parseEthAmount } from './parse-eth-amount.ts'
import { readPoolQuotes } from '../../chain/reads/read-pool-quotes.ts'
import { buildBuySwapParams, encodeExactInputSingle } from '../../chain/builders/build-swap.ts'
import { AppError } from '../../errors/app-error.ts'
import { simulateForCaller, simulationOut } from '../plan-simulation.ts'
import {
  BURN_ADDRESS, BURN_HALF_WEI, BURN_TOTAL_TOKENS, BURN_TOTAL_WEI, POOL_FEE, TOKEN_DECIMALS, TOKEN_SYMBOL,
} from '../../chain/constants.ts'

const RECIPIENT_PLACEHOLDER = '<YOUR_ADDRESS>'

const swapInfo = z.object({
  chain: chainInfo,
  token: z.object({ address: addressOut, symbol: z.string(), decimals: z.number().int() }),
  dex: z.object({
    name: z.string(),
    type: z.string(),
    swapRouter: addressOut,
    quoter: addressOut,
    weth: addressOut,
    pool: addressOut,
    feeTier: z.number().int(),
  }),
  burnRequirements: z.object({
    totalAmount: wei,
    totalAmountDisplay: z.string(),
    burnAddress: addressOut,
    burnAmount: wei,
    burnAmountDisplay: z.string(),
    trenFundWallet: addressOut,
    trenFundAmount: wei,
    trenFundAmountDisplay: z.string(),
  }),
  instructions: z.record(z.string(), z.string()),
})

const liveQuote = z.object({
  quote: z.object({
    ethIn: z.string(),
    ethInWei: wei,
    coinOut: z.number(),
    coinOutWei: wei,
    hasEnoughForBurn: z.boolean(),
    burnRequirement: z.number().int(),
    gasEstimate: z.string(),
  }),
  swap: z.object({
    router: addressOut,
    functionName: z.literal('exactInputSingle'),
    params: z.object({
      tokenIn: addressOut,
      tokenOut: addressOut,
      fee: z.number().int(),
      recipient: z.string(),
      amountIn: wei,
      amountOutMinimum: wei,
      sqrtPriceLimitX96: z.string(),
    }),
    value: wei,
    data: hexData.optional().describe('Calldata of exactInputSingle, present when a recipient was given'),
    note: z.string(),
  }),
  chain: chainInfo,
  simulation: simulationOut.nullable().describe('The swap simulated from recipient (present when recipient is given)'),
})

export const getSwapQuote = defineOperation({
  id: 'get_swap_quote',
  limit: 'expensive',
  method: 'GET',
  path: '/api/x402/quote',
  summary: 'Quote buying the service token with ETH, with a ready exactInputSingle swap',
  description:
    'Without ethAmount: swap venue, contract addresses and burn requirements. With ethAmount (ETH decimal like "0.5", or a wei integer of 10+ digits): a live quote from the DEX quoter and the router call with 2% slippage. Pass recipient to get the calldata too, and the swap simulated from that wallet (simulation; a swap that would fail, e.g. for want of ETH, is still quoted, marked simulation.executable false with the reason).',
  tags: ['swap'],
  input: z.object({
    ethAmount: z.string().optional().describe('ETH to spend: decimal ETH ("0.5") or wei ("500000000000000000")'),
    recipient: addressIn('Wallet that receives the tokens; fills swap.params.recipient and swap.data').optional(),
  }),
  output: z.union([liveQuote, swapInfo]),
  errors: ['INVALID_AMOUNT', 'INVALID_ADDRESS', 'DEX_QUOTE_FAILED', 'UPSTREAM_FAILED'],
  cacheSeconds: 5,
  dependsOn: ['pool'],
  // "0.5" and "500000000000000000" are one question.
  canonicalInput: (input) => ({ weiIn: input.ethAmount === undefined ? null : parseEthAmount(input.ethAmount).toString(), recipient: input.recipient ?? null }),
  uses: ['chain'],
  async handler(ctx, input) {
    const { contracts, info } = ctx.chain
    if (input.ethAmount === undefined) {
      return {
        chain: info,
        token: { address: contracts.token, symbol: TOKEN_SYMBOL, decimals: TOKEN_DECIMALS },
        dex: {
          name: 'Kumbaya',
          type: 'Uniswap V3 (concentrated liquidity)',
          swapRouter: contracts.swapRouter,
          quoter: contracts.quoterV2,
          weth: contracts.weth,
          pool: contracts.pool,
          feeTier: POOL_FEE,
        },
        burnRequirements: {
          totalAmount: BURN_TOTAL_WEI.toString(),
          totalAmountDisplay: `${BURN_TOTAL_TOKENS.toLocaleString('en-US')} ${TOKEN_SYMBOL}`,
          burnAddress: BURN_ADDRESS,
          burnAmount: BURN_HALF_WEI.toString(),
          burnAmountDisplay: `${(BURN_TOTAL_TOKENS / 2).toLocaleString('en-US')} ${TOKEN_SYMBOL}`,
          trenFundWallet: ctx.chain.fundWallet,
          trenFundAmount: BURN_HALF_WEI.toString(),
          trenFundAmountDisplay: `${(BURN_TOTAL_TOKENS / 2).toLocaleString('en-US')} ${TOKEN_SYMBOL}`,
        },
        instructions: {
          step1: 'GET /api/x402/quote?ethAmount=<ETH> for a live quote and the exactInputSingle call.',
          step2: `Send the swap to the router with value = amountIn; tokenIn is WETH, the router wraps your ETH.`,
          step3: `Transfer ${(BURN_TOTAL_TOKENS / 2).toLocaleString('en-US')} ${TOKEN_SYMBOL} to ${BURN_ADDRESS}.`,
          step4: `Transfer ${(BURN_TOTAL_TOKENS / 2).toLocaleString('en-US')} ${TOKEN_SYMBOL} to the fund wallet ${ctx.chain.fundWallet}.`,
          step5: 'GET /api/x402/looksmaxx for the 1 USDm payment requirements, then POST both transaction hashes with your portrait.',
        },
      }
    }
    const amountIn = parseEthAmount(input.ethAmount)
    const [quote] = await readPoolQuotes(ctx.chain, [{ tokenIn: contracts.weth, tokenOut: contracts.token, amountIn }])
    if (!quote) {
      throw new AppError('DEX_QUOTE_FAILED', `The DEX could not quote ${formatEther(amountIn)} ETH: not enough liquidity.`, {
        retryable: true,
      })
    }
    const params = buildBuySwapParams({
      weth: contracts.weth,
      token: contracts.token,
      amountIn,
      quotedOut: quote.amountOut,
      recipient: input.recipient ?? RECIPIENT_PLACEHOLDER,
    })
    const data = input.recipient ? encodeExactInputSingle({ ...params, recipient: input.recipient }) : undefined
    const simulation = data
      ? await simulateForCaller(ctx.chain, input.recipient, [{ to: contracts.swapRouter, data, value: amountIn, functionName: 'exactInputSingle' }], 'mark')
      : null
    return {
      quote: {
        ethIn: formatEther(amountIn),
        ethInWei: amountIn.toString(),
        coinOut: Number(formatUnits(quote.amountOut, TOKEN_DECIMALS)),
        coinOutWei: quote.amountOut.toString(),
        hasEnoughForBurn: quote.amountOut >= BURN_TOTAL_WEI,
        burnRequirement: BURN_TOTAL_TOKENS,
        gasEstimate: quote.gasEstimate.toString(),
      },
      swap: {
        router: contracts.swapRouter,
        functionName: 'exactInputSingle' as const,
        params: {
          tokenIn: params.tokenIn,
          tokenOut: params.tokenOut,
          fee: params.fee,
          recipient: params.recipient,
          amountIn: params.amountIn.toString(),
          amountOutMinimum: params.amountOutMinimum.toString(),
          sqrtPriceLimitX96: params.sqrtPriceLimitX96.toString(),
        },
        value: amountIn.toString(),
        ...(data ? { data } : {}),
        note: input.recipient
          ? 'Send data to the router with value; amountOutMinimum protects you from moves over 2%.'
          : `Replace ${RECIPIENT_PLACEHOLDER} with your wallet and send value with the call (or pass ?recipient= for calldata).`,
      },
      chain: info,
      simulation,
    }
  },
})
