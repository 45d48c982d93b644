import { getAmmQuote } from '../../operations/defi/get-amm-quote.ts'
import { buildAmmSwapTx } from '../../operations/defi/build-amm-swap-tx.ts'
import { buildAddLiquidityTx } from '../../operations/defi/build-add-liquidity-tx.ts'
import { tokenAmountOf, type Entities, type Token } from '../extract.ts'
import { noRecipientHint } from '../recipient.ts'
import { call } from '../runner.ts'
import { fmtDecimal, stepsWords } from '../words.ts'
import { operationIntent, recipientOf } from './define-intent.ts'
import { forPayee, ownWallet } from './wallets.ts'

/** The token a pair swap sells: the one an amount is written in, else the first of MC/MG named. */
function swapFrom(entities: Entities): 'MC' | 'MG' {
  const pair = entities.tokens.filter((t): t is Extract<Token, 'MC' | 'MG'> => t === 'MC' || t === 'MG')
  const amountToken = entities.amounts.find((a) => a.token === 'MC' || a.token === 'MG')?.token as 'MC' | 'MG' | undefined
  return amountToken ?? pair[0] ?? 'MC'
}

const pairCall = call(getAmmQuote, {}, 'Pair reserves and spot price')

export const swapMcMg = operationIntent({
  description: 'Swap between MC and MG on the pair: a quote, and the swap plan',
  example: 'swap 1000 mc for mg',
  operation: getAmmQuote,
  pays: true,
  input: (ctx) => {
    const from = swapFrom(ctx.entities)
    const amount = tokenAmountOf(ctx.entities, from)
    return amount ? { from, amount } : {}
  },
  answer: (d, ctx) => {
    const quote = d.quote
      ? `${fmtDecimal(d.quote.amountOutFormatted)} ${d.quote.to} for ${fmtDecimal(tokenAmountOf(ctx.entities, swapFrom(ctx.entities)))} ${d.quote.from} (${d.quote.priceImpactBps / 100} % price impact).`
      : `The pair holds ${fmtDecimal(d.reserves.MCFormatted)} MC and ${fmtDecimal(d.reserves.MGFormatted)} MG: 1 MC is ${d.spotPrice.mgPerMc} MG. Give an amount for a quote ("swap 1000 mc for mg").`
    if (!d.quote) return quote
    return ownWallet(ctx)
      ? `${quote} The suggested swap sends the output to ${recipientOf(ctx)}.`
      : `${quote} ${ctx.recipientProblem ?? `No swap transaction without a recipient: ${noRecipientHint(ctx.entities)}`}`
  },
  next: (ctx) => {
    const from = swapFrom(ctx.entities)
    const amount = tokenAmountOf(ctx.entities, from)
    const recipient = ownWallet(ctx)
    return recipient && amount ? [call(buildAmmSwapTx, { from, amount, recipient }, `Swap ${amount} ${from}, output to ${recipient}`)] : []
  },
})

export const addLiquidity = operationIntent({
  description: 'Add MC and MG liquidity to the pair: approve, approve, add',
  example: 'add liquidity 1000 mc and 500 mg',
  operation: buildAddLiquidityTx,
  pays: true,
  input: (ctx) => {
    const mc = ctx.entities.amounts.find((a) => a.token === 'MC')?.value
    const mg = ctx.entities.amounts.find((a) => a.token === 'MG')?.value
    if (!mc || !mg) return { missing: 'amount', hint: 'Give both amounts, e.g. "add 1000 MC and 500 MG liquidity".' }
    return forPayee(ctx, (wallet) => ({ amountMC: mc, amountMG: mg, recipient: wallet, address: wallet }))
  },
  answer: (d, ctx) => `Liquidity plan ready: ${d.executionPlan.length} transaction(s); the LP tokens go to ${recipientOf(ctx)}: ${stepsWords(d.executionPlan, ctx.contractName)}.`,
  next: () => [pairCall],
  related: () => [pairCall],
})
