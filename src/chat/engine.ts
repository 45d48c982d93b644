import type { Address } from 'viem'
import type { Context } from '../context.ts'
import { extractEntities, type Entities } from './extract.ts'
import { classify, type Classification } from './classify.ts'
import type { Intent } from './intent-names.ts'
import { INTENT_HANDLERS } from './intents/index.ts'
import type { IntentInput, Reply } from './intents/define-intent.ts'
import type { LlmRefiner } from './llm.ts'
import { resolveRecipient, type Recipient } from './recipient.ts'
import { createRunner, type ChatAction, type Runner } from './runner.ts'
import { getAgentIndex } from '../operations/agent/get-agent-index.ts'
import { call } from './runner.ts'

export type { ChatAction }

export type ChatResult = {
  intent: Intent | 'unclear'
  answer: string
  data: Record<string, unknown> | null
  actions: ChatAction[]
  confidence: number
  /** The closest intents (always the top 3 of the classifier). */
  suggestions: Intent[]
  entities: Entities
  /** Where the intent came from: the rule classifier, or the LLM refining an unsure one. */
  classifiedBy: 'rules' | 'llm'
  /** The operation the answer comes from, when one was called. */
  operationId: string | null
  /** Set when the operation refused or failed: its public error code and message. */
  error: { code: string; message: string } | null
  /**
   * Who receives what this answer's transactions move (tokens bought, LP tokens, the NFT), when
   * it carries or builds such a transaction: the request's `wallet` (source "wallet") or an
   * explicit "to 0x…" of the message (source "message"); null otherwise. The answer says it too.
   */
  recipient: Recipient | null
}

export type ChatRequest = { message: string; wallet?: Address }

const DEFAULT_SUGGESTIONS: Intent[] = ['price', 'looksmaxx', 'gallery']

/**
 * Messages to operation calls: extract entities, classify (rules, refined by the LLM when
 * unsure and configured), resolve who may receive money, let the intent call its operations
 * through the runner, and return its reply with the classification around it.
 */
export async function chat(ctx: Context, request: ChatRequest, llm?: LlmRefiner): Promise<ChatResult> {
  const entities = extractEntities(request.message)
  let classification = classify(request.message, entities)
  let classifiedBy: ChatResult['classifiedBy'] = 'rules'
  if (llm && (classification.intent === 'unclear' || classification.confidence < 0.35)) {
    const refined = await llm.refine(request.message, classification.top)
    if (refined && refined !== 'unclear') {
      classification = { ...classification, intent: refined }
      classifiedBy = 'llm'
    }
  }
  const contractName = contractNamesOf(ctx)
  const { recipient, problem } = resolveRecipient(entities, request.wallet, contractName)
  const input: Omit<IntentInput, 'intent'> = {
    entities,
    // Reads may be about anyone the message names; money only ever goes to the recipient.
    subject: entities.addresses[0] ?? request.wallet,
    recipient,
    recipientProblem: problem,
    requestWallet: request.wallet,
    contractName,
  }
  const runner = createRunner(ctx)
  const reply = await replyTo(classification, input, runner)
  return {
    intent: classification.intent,
    ...reply,
    actions: dedupe(reply.actions),
    recipient: reply.recipient ?? null,
    confidence: classification.confidence,
    suggestions: classification.top.length ? classification.top : DEFAULT_SUGGESTIONS,
    entities,
    classifiedBy,
  }
}

async function replyTo(classification: Classification, input: Omit<IntentInput, 'intent'>, runner: Runner): Promise<Reply> {
  const intent = classification.intent
  if (intent === 'unclear') return unclear(classification, input, runner)
  if (input.entities.invalidAmounts.length) return invalidAmount(input.entities.invalidAmounts)
  const handler = INTENT_HANDLERS[intent]
  if (!handler.operations.some((op) => runner.has(op))) {
    return {
      answer: `I understood "${intent.replace(/_/g, ' ')}", but this capability is not available on this deployment yet.`,
      data: null,
      actions: [runner.action(call(getAgentIndex, {}, 'Every endpoint of this deployment')), ...closestActions(classification, input, runner, intent)].filter((a): a is ChatAction => a !== undefined),
      operationId: null,
      error: null,
    }
  }
  return handler.reply({ ...input, intent }, runner)
}

/** The deployment's contracts by address, to name them in answers and refuse them as recipients. */
function contractNamesOf(ctx: Context): (address: Address) => string | undefined {
  const names = new Map<string, string>()
  for (const [name, address] of Object.entries(ctx.chain?.contracts ?? {})) if (typeof address === 'string') names.set(address.toLowerCase(), name)
  return (address) => names.get(address.toLowerCase())
}

/**
 * An amount that is no number a transaction can carry ("1e320 gwei", "0.5 wei") is refused in
 * words before anything is called, rather than dropped (the rest of the message would then be
 * quoted with a default amount) or passed on.
 */
function invalidAmount(raws: string[]): Reply {
  const message = `Not a usable amount: ${raws.map((r) => `"${r.length > 40 ? `${r.slice(0, 37)}…` : r}"`).join(', ')}. Write a decimal number of at most 15 digits before the point and 18 after it (in wei: a whole number), e.g. "0.05 eth" or "225k tokens".`
  return { answer: message, data: null, actions: [], operationId: null, error: { code: 'INVALID_AMOUNT', message } }
}

/** The default calls of the closest intents that need nothing missing, for answers that could not be given. */
function closestActions(classification: Classification, input: Omit<IntentInput, 'intent'>, runner: Runner, except?: Intent): ChatAction[] {
  const candidates = [...classification.ranked.map((r) => r.intent), ...DEFAULT_SUGGESTIONS].filter((i) => i !== except)
  const actions: ChatAction[] = []
  for (const intent of new Set(candidates)) {
    const suggested = INTENT_HANDLERS[intent].defaultCall?.({ ...input, intent })
    const action = suggested && runner.action(suggested)
    if (action) actions.push(action)
    if (actions.length === 3) break
  }
  return actions
}

function unclear(classification: Classification, input: Omit<IntentInput, 'intent'>, runner: Runner): Reply {
  const top = classification.top.length ? classification.top : DEFAULT_SUGGESTIONS
  const list = top.map((i) => `${i.replace(/_/g, ' ')} ("${INTENT_HANDLERS[i].example}")`).join(', ')
  return { answer: `I am not sure what you mean. Closest: ${list}.`, data: null, actions: closestActions(classification, input, runner), operationId: null, error: null }
}

function dedupe(actions: ChatAction[]): ChatAction[] {
  const seen = new Set<string>()
  return actions.filter((a) => {
    const key = `${a.method} ${a.endpoint} ${JSON.stringify(a.body)}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}
