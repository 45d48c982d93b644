import { getSwapQuote } from '../../operations/swap/get-swap-quote.ts'
import { ethAmountOf } from '../extract.ts'
import { noRecipientHint, txWords } from '../recipient.ts'
import type { OutputOf } from '../runner.ts'
import { fmt } from '../words.ts'
import { operationIntent, recipientOf, type IntentInput } from './define-intent.ts'
import { planCall } from './looksmaxx.ts'
import { ownWallet } from './wallets.ts'

type LiveQuote = Extract<OutputOf<typeof getSwapQuote>, { quote: unknown }>

/** The swap's transaction in words: what it pays to the router and who receives the tokens. */
export function swapWords(swap: LiveQuote['swap'], ctx: IntentInput): string {
  if (!swap.data) return `No transaction yet: the recipient is left as ${swap.params.recipient}. ${noRecipientHint(ctx.entities)}`
  return `The router call ${txWords({ to: swap.router, value: swap.value, functionName: swap.functionName, data: swap.data }, ctx.contractName)}; the MEGACHAD go to ${recipientOf(ctx)}.`
}

/** "buy 0.1 eth of megachad": the live quote of an ETH amount, with the router call for the recipient. */
export const swapQuote = operationIntent({
  description: 'Quote buying the service token with ETH, with the ready router call',
  example: 'buy 0.1 eth of megachad',
  operation: getSwapQuote,
  pays: true,
  input: (ctx) => {
    if (ctx.recipientProblem) return { missing: 'recipient', hint: ctx.recipientProblem }
    // Without a recipient the quote still answers, with a placeholder and no calldata.
    return { ethAmount: ethAmountOf(ctx.entities, true) ?? '0.1', recipient: ownWallet(ctx) }
  },
  answer: (d, ctx) =>
    'quote' in d
      ? `${d.quote.ethIn} ETH buys about ${fmt(d.quote.coinOut, 0)} MEGACHAD (2% slippage applied to the minimum)${d.quote.hasEnoughForBurn ? ', enough for a burn' : ''}. ${swapWords(d.swap, ctx)}`
      : 'Swap venue and contracts; give an ETH amount for a live quote.',
  next: (ctx) => planCall(ctx),
})
