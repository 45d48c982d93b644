import type { Address } from 'viem'
import { noRecipientHint } from '../recipient.ts'
import type { IntentInput, Missing } from './define-intent.ts'

export const needWallet: Missing = { missing: 'wallet', hint: 'Send your wallet address (in the message or as `wallet`).' }

/**
 * The wallet a transaction is built for: the recipient (the request's wallet or an explicit
 * "to 0x…"), or what is missing. Never the subject: an address merely mentioned receives nothing.
 */
export function payee(ctx: IntentInput): Address | Missing {
  if (ctx.recipientProblem) return { missing: 'recipient', hint: ctx.recipientProblem }
  if (!ctx.recipient) return { missing: 'wallet', hint: noRecipientHint(ctx.entities) }
  return ctx.recipient.address
}

/** Input for the caller's transactions: `build(address)` with the payee, or what is missing. */
export function forPayee<T>(ctx: IntentInput, build: (address: Address) => T): T | Missing {
  const who = payee(ctx)
  return typeof who === 'string' ? build(who) : who
}

/** The caller's own wallet (the usable recipient), for plans that read it first. */
export const ownWallet = (ctx: IntentInput): Address | undefined => (ctx.recipient && !ctx.recipientProblem ? ctx.recipient.address : undefined)

/** The subject is the caller's own wallet: a transaction for it may be suggested after a read. */
export const isOwnSubject = (ctx: IntentInput) => !!ctx.subject && ctx.subject === ownWallet(ctx)

/** A read about the subject (anyone's data may be read), or the missing wallet. */
export const subjectOr = (ctx: IntentInput) => (ctx.subject ? { address: ctx.subject } : needWallet)
