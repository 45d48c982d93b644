import { z } from 'zod'
import { defineOperation } from '../define.ts'
import { addressOut, wei } from '../schemas.ts'
import { readPair } from '../../chain/reads/read-pair.ts'
import { quotePairSwap } from '../../chain/builders/build-pair-plans.ts'
import { AppError } from '../../errors/app-error.ts'
import { CHAIN_ID, fmt, humanAmount, pairSides } from './shared.ts'

export const getAmmQuote = defineOperation({
  id: 'get_amm_quote',
  method: 'GET',
  path: '/api/defi/amm/quote',
  summary: 'MC/MG pair: reserves and spot price, or with from and amount the expected output and price impact',
  description: 'The pair uses a tokenA/tokenB layout, not token0/token1, so generic V2 routers do not find it.',
  tags: ['defi-reads'],
  input: z.object({
    from: z.enum(['MC', 'MG']).optional().meta({ description: 'Input token: MC (MEGACHAD) or MG' }),
    amount: humanAmount('Input amount in token units').optional(),
  }),
  output: z.object({
    chainId: z.number().int(),
    pair: addressOut,
    tokenA: addressOut,
    tokenB: addressOut,
    reserves: z.object({ MC: wei, MG: wei, MCFormatted: z.string(), MGFormatted: z.string() }),
    spotPrice: z.object({ mgPerMc: z.string(), mcPerMg: z.string() }),
    lpTotalSupply: wei,
    quote: z
      .object({ from: z.string(), to: z.string(), amountIn: wei, amountOut: wei, amountOutFormatted: z.string(), minOut: wei, slippageBps: z.number().int(), priceImpactBps: z.number().int(), swapTx: z.string() })
      .optional(),
  }),
  errors: ['INVALID_AMOUNT', 'UPSTREAM_FAILED'],
  requires: ['pair', 'secondToken'],
  uses: ['chain'],
  async handler(ctx, { from, amount }) {
    if ((from === undefined) !== (amount === undefined)) throw new AppError('INVALID_INPUT', 'Give both from and amount, or neither.', { details: { field: from === undefined ? 'from' : 'amount' } })
    const p = await readPair(ctx.chain)
    const { reserveMc, reserveMg } = pairSides(p, ctx.chain.contracts.token)
    const ratio = (num: bigint, den: bigint) => (den === 0n ? '0' : fmt((num * 10n ** 18n) / den))
    let quote
    if (from && amount !== undefined) {
      const [rIn, rOut] = from === 'MC' ? [reserveMc, reserveMg] : [reserveMg, reserveMc]
      const q = quotePairSwap({ amountIn: amount, reserveIn: rIn, reserveOut: rOut })
      // As swap-tx refuses it: a swap the pair would pay nothing for is not quoted with a link to it.
      if (q.amountOut === 0n) throw new AppError('INVALID_AMOUNT', 'The amount is too small: the pair would pay nothing.', { details: { field: 'amount', reason: 'zero_output' } })
      quote = {
        from, to: from === 'MC' ? 'MG' : 'MC', amountIn: amount.toString(), amountOut: q.amountOut.toString(), amountOutFormatted: fmt(q.amountOut),
        minOut: q.minOut.toString(), slippageBps: Number(q.slippageBps), priceImpactBps: Number(q.priceImpactBps),
        swapTx: `/api/defi/amm/swap-tx?from=${from}&amount=${fmt(amount)}&recipient={address}&slippageBps=200`,
      }
    }
    return {
      chainId: CHAIN_ID, pair: p.pair, tokenA: p.tokenA, tokenB: p.tokenB,
      reserves: { MC: reserveMc.toString(), MG: reserveMg.toString(), MCFormatted: fmt(reserveMc), MGFormatted: fmt(reserveMg) },
      spotPrice: { mgPerMc: ratio(reserveMg, reserveMc), mcPerMg: ratio(reserveMc, reserveMg) },
      lpTotalSupply: p.lpTotalSupply.toString(),
      ...(quote ? { quote } : {}),
    }
  },
})
