import { getPrice } from '../../operations/market/get-price.ts'
import { getSwapQuote } from '../../operations/swap/get-swap-quote.ts'
import { call, type ChatAction, type Runner } from '../runner.ts'
import { fmt } from '../words.ts'
import type { IntentInput, Reply } from './define-intent.ts'
import { planCall } from './looksmaxx.ts'
import { swapWords } from './swap-quote.ts'
import { ownWallet } from './wallets.ts'

/**
 * An ETH decimal of at least `x`, with enough places for tiny amounts ("0.000231"), never in
 * exponent form; undefined past 10^12 ETH (more than exists, and where toFixed writes exponents).
 */
function ethCeil(x: number): string | undefined {
  if (!Number.isFinite(x) || x <= 0 || x > 1e12) return undefined
  const places = Math.min(18, Math.max(6, Math.ceil(-Math.log10(x)) + 4))
  const factor = 10 ** places
  const fixed = (Math.ceil(x * factor) / factor).toFixed(places).replace(/0+$/, '')
  return fixed.endsWith('.') ? `${fixed}0` : fixed
}

/**
 * "buy 225k tokens": the ETH that buys that many tokens. The spot price (get_price) gives an
 * estimate with 3 % to spare (as the looksmaxx plan prices missing tokens); the live quote of
 * that amount (get_swap_quote) is the data, re-quoted once if price impact left it short.
 * Without both operations the chat asks for an ETH amount rather than quote something else.
 */
export async function swapForTokens(tokens: string, ctx: IntentInput, runner: Runner): Promise<Reply> {
  const wanted = Number(tokens)
  const ask = `Say how much ETH to spend, e.g. "swap 0.1 eth for megachad".`
  const nothing = { data: null, actions: [], error: null }
  if (ctx.recipientProblem) return { ...nothing, answer: ctx.recipientProblem, operationId: null }
  if (!runner.has(getPrice) || !runner.has(getSwapQuote)) {
    return { ...nothing, answer: `I cannot price ${fmt(wanted)} MEGACHAD in ETH on this deployment. ${ask}`, operationId: null }
  }
  const price = await runner.run(getPrice, {})
  const ethPerCoin = price.ok ? price.data.price.ethPerCoin : NaN
  if (!price.ok || !(ethPerCoin > 0)) {
    const error = price.ok ? { code: 'DEX_QUOTE_FAILED', message: 'the pool gave no price' } : { code: price.code, message: price.message }
    return { ...nothing, answer: `Could not price ${fmt(wanted)} MEGACHAD in ETH (${error.code}): ${error.message}. ${ask}`, operationId: getPrice.id, error }
  }
  const recipient = ownWallet(ctx)
  const estimate = ethCeil(wanted * ethPerCoin * 1.03)
  if (estimate === undefined) return { ...nothing, answer: `${fmt(wanted)} MEGACHAD would cost more ETH than exists: no pool sells that many. ${ask}`, operationId: getPrice.id }
  let ethAmount = estimate
  let quote = await runner.run(getSwapQuote, { ethAmount, recipient })
  const coinOut = (outcome: typeof quote) => (outcome.ok && 'quote' in outcome.data ? outcome.data.quote.coinOut : NaN)
  if (coinOut(quote) > 0 && coinOut(quote) < wanted) {
    // Price impact: scale up by the shortfall, with the same 3 % to spare.
    const retry = ethCeil(Number(ethAmount) * (wanted / coinOut(quote)) * 1.03)
    const second = retry === undefined ? undefined : await runner.run(getSwapQuote, { ethAmount: retry, recipient })
    if (retry !== undefined && second?.ok) [ethAmount, quote] = [retry, second]
  }
  const actions = [call(getSwapQuote, { ethAmount, recipient }, `Quote ${ethAmount} ETH`), ...planCall(ctx)]
    .map((c) => runner.action(c))
    .filter((a): a is ChatAction => a !== undefined)
  if (!quote.ok) {
    return {
      answer: `At the spot price ${fmt(wanted)} MEGACHAD cost about ${ethAmount} ETH, but the live quote was refused (${quote.code}): ${quote.message}`,
      data: null,
      actions,
      operationId: getSwapQuote.id,
      error: { code: quote.code, message: quote.message },
    }
  }
  const out = coinOut(quote)
  const words = 'swap' in quote.data ? ` ${swapWords(quote.data.swap, ctx)}` : ''
  return {
    answer:
      (out >= wanted
        ? `About ${ethAmount} ETH buys ${fmt(wanted)} MEGACHAD: the live quote for ${ethAmount} ETH is about ${fmt(out, 0)} MEGACHAD (2% slippage applied to the minimum).`
        : `${fmt(wanted)} MEGACHAD is more than the pool sells at a fair price: ${ethAmount} ETH buys only about ${fmt(out, 0)} (price impact). Try a smaller amount.`) + words,
    data: quote.data,
    actions,
    operationId: getSwapQuote.id,
    error: null,
    recipient: recipient ? ctx.recipient : null,
  }
}
