import type { Address } from 'viem'
import type { Entities } from '../extract.ts'
import type { Intent } from '../intent-names.ts'
import type { Recipient } from '../recipient.ts'
import { call, type Call, type ChatAction, type ChatOperation, type InputOf, type OutputOf, type Runner } from '../runner.ts'
import { recipientWords } from '../recipient.ts'
import { getAgentIndex } from '../../operations/agent/get-agent-index.ts'

/** What an intent's calls are built from: the message's entities and the request's wallet. */
export type IntentInput = {
  intent: Intent
  entities: Entities
  /**
   * Whose data a read is about: the first address of the message, else the request's wallet.
   * Only ever read: "what does 0x… hold" may look at anyone.
   */
  subject?: Address
  /**
   * Who receives what the caller's transactions move (recipient.ts): the request's wallet or an
   * explicit "to 0x…"; never an address merely mentioned.
   */
  recipient?: Recipient
  /** Why the message's recipient phrase cannot be used (two of them, a name, a contract). */
  recipientProblem?: string
  /** The request's wallet (context), if given. */
  requestWallet?: Address
  /** The name of a contract of this deployment at an address, for answers in words. */
  contractName(address: Address): string | undefined
}

/** What an intent needs that the message and the context did not give. */
export type Missing = { missing: 'wallet' | 'recipient' | 'proposalId' | 'amount' | 'chain'; hint: string }

export function isMissing(value: unknown): value is Missing {
  return typeof value === 'object' && value !== null && typeof (value as Missing).missing === 'string' && typeof (value as Missing).hint === 'string'
}

/** An intent's reply; the engine adds the intent and the classification around it. */
export type Reply = {
  answer: string
  /** The data of the operation the answer comes from (or the intent's own composition). */
  data: Record<string, unknown> | null
  actions: ChatAction[]
  operationId: string | null
  error: { code: string; message: string } | null
  /** Set when the reply carries or builds transactions for the recipient. */
  recipient?: Recipient | null
}

/** One intent as the engine sees it. */
export type IntentHandler = {
  /** One line for the GET documentation. */
  description: string
  /** A message that reaches this intent. */
  example: string
  /** The operations it may call: the intent is available when one of them is deployed. */
  operations: ChatOperation[]
  reply(input: IntentInput, runner: Runner): Promise<Reply>
  /** Its call when nothing is missing (suggested by unclear answers), if it has a single one. */
  defaultCall?(input: IntentInput): Call | undefined
}

/**
 * An intent answered by one operation: how the operation's input is built from the message,
 * how its typed output is worded, and what to suggest next.
 */
export type OperationIntent<Op extends ChatOperation, Read extends ChatOperation> = {
  description: string
  example: string
  /** The operation, by value: its input and output types are the intent's. */
  operation: Op
  /** The operation's input, or what is missing. */
  input(ctx: IntentInput): InputOf<Op> | Missing
  /** A short answer in words from the operation's data. */
  answer(data: OutputOf<Op>, ctx: IntentInput): string
  /** Follow-up calls worth suggesting (those not deployed are dropped). */
  next?(ctx: IntentInput, data: OutputOf<Op>): Call[]
  /**
   * A read that still answers when `input` lacks something ("what can I stake?" has no amount):
   * its data and an answer that says what to add, instead of only asking for it.
   */
  whenMissing?: { operation: Read; input(ctx: IntentInput): InputOf<Read>; answer(data: OutputOf<Read>, ctx: IntentInput, missing: Missing): string }
  /** Calls that help when the intent cannot be answered (default: the agent index). */
  related?(ctx: IntentInput): Call[]
  /**
   * Builds transactions for the caller (recipient.ts): its input takes the recipient, never the
   * subject, and the reply names the recipient (`recipient`).
   */
  pays?: boolean
}

/** The reply of an intent whose operation ran: its data, answer, the same call and the next ones. */
export function operationIntent<Op extends ChatOperation, Read extends ChatOperation = ChatOperation>(spec: OperationIntent<Op, Read>): IntentHandler {
  const related = (ctx: IntentInput) => spec.related?.(ctx) ?? [call(getAgentIndex, {}, 'Every endpoint of this API')]
  return {
    description: spec.description,
    example: spec.example,
    operations: [spec.operation, ...(spec.whenMissing ? [spec.whenMissing.operation] : [])],
    defaultCall(ctx) {
      const built = spec.input(ctx)
      return isMissing(built) ? undefined : call(spec.operation, built, spec.description)
    },
    async reply(ctx, runner) {
      const built = spec.input(ctx)
      const actions = (calls: Call[]) => calls.map((c) => runner.action(c)).filter((a): a is ChatAction => a !== undefined)
      const refused = (operationId: string, outcome: { code: string; message: string }) => ({
        answer:
          outcome.code === 'NOT_DEPLOYED'
            ? `I cannot answer that here: it needs a contract this network does not have. ${outcome.message}`
            : `The ${operationId} call was refused (${outcome.code}): ${outcome.message}`,
        data: null,
        actions: actions(related(ctx)),
        operationId,
        error: { code: outcome.code, message: outcome.message },
      })
      if (isMissing(built)) {
        const read = spec.whenMissing
        if (read && runner.has(read.operation)) {
          const readInput = read.input(ctx)
          const outcome = await runner.run(read.operation, readInput)
          if (outcome.ok) {
            return { answer: read.answer(outcome.data, ctx, built), data: outcome.data as Record<string, unknown>, actions: actions([call(read.operation, readInput, 'The same data, directly')]), operationId: read.operation.id, error: null }
          }
          // Asking for the missing part would not help: no input makes it work on this network.
          if (outcome.code === 'NOT_DEPLOYED') return refused(read.operation.id, outcome)
        }
        const hint = built.hint.charAt(0).toUpperCase() + built.hint.slice(1)
        return { answer: `I understood "${ctx.intent.replace(/_/g, ' ')}". ${hint}`, data: null, actions: actions(related(ctx)), operationId: null, error: null }
      }
      const recipient = spec.pays && ctx.recipient && !ctx.recipientProblem ? ctx.recipient : null
      const outcome = await runner.run(spec.operation, built)
      if (!outcome.ok) return refused(spec.operation.id, outcome)
      return {
        answer: spec.answer(outcome.data, ctx),
        data: outcome.data as Record<string, unknown>,
        actions: actions([call(spec.operation, built, 'The same data, directly'), ...(spec.next?.(ctx, outcome.data) ?? [])]),
        operationId: spec.operation.id,
        error: null,
        recipient,
      }
    },
  }
}

/** "0x… (your wallet)": the recipient of a reply's transactions, in words. */
export const recipientOf = (ctx: IntentInput) => (ctx.recipient ? recipientWords(ctx.recipient, ctx.requestWallet) : 'the wallet that sends them')
