import { getPrice } from '../../operations/market/get-price.ts'
import { ethAmountOf } from '../extract.ts'
import type { IntentHandler } from './define-intent.ts'
import { swapForTokens } from './swap-for-tokens.ts'
import { swapQuote } from './swap-quote.ts'

/** Buying MEGACHAD with ETH: an ETH amount is quoted; a token amount asks what ETH buys it. */
export const swap: IntentHandler = {
  ...swapQuote,
  operations: [...swapQuote.operations, getPrice],
  reply(ctx, runner) {
    const tokensWanted = ctx.entities.amounts.find((a) => a.token === 'MC')?.value
    return tokensWanted && !ethAmountOf(ctx.entities, true) ? swapForTokens(tokensWanted, ctx, runner) : swapQuote.reply(ctx, runner)
  },
}
