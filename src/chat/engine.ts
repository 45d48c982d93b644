import { randomUUID } from 'node:crypto'
import type { Address } from 'viem'
import type { Context } from '../context.ts'
import type { AnyOperation } from '../operations/define.ts'
import { parseOperationInput } from '../operations/runtime/parse-input.ts'
import { runOperation } from '../operations/runtime/run-operation.ts'
import { toAppError } from '../operations/runtime/errors.ts'
import { jsonSchemaOf } from '../operations/json-schema.ts'
import { ethAmountOf, extractEntities, type Entities } from './extract.ts'
import { classify, type Classification } from './classify.ts'
import { INTENT_TABLE, fmt, ownWallet, type Call, type Intent, type IntentInput, type Missing } from './intents.ts'
import type { LlmRefiner } from './llm.ts'
import { noRecipientHint, recipientWords, resolveRecipient, type Recipient } from './recipient.ts'

/** A suggested next call: a valid call of this API (method + path exist, body parses). */
export type ChatAction = {
  label: string
  /** Path with the query string for GET (the query parameters are in `body` too). */
  endpoint: string
  method: 'GET' | 'POST'
  /** GET: the query parameters; POST: the JSON body. */
  body: Record<string, unknown>
  /** The operation (MCP tool) behind the endpoint. */
  operationId: string
}

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
   * it carries or suggests such a transaction: the request's `wallet` (source "wallet") or an
   * explicit "to 0x…" of the message (source "message"); null otherwise. The answer says it too.
   */
  recipient: Recipient | null
}

export type ChatRequest = { message: string; wallet?: Address }

type Outcome = { ok: true; data: Record<string, unknown> } | { ok: false; code: string; message: string }

const DEFAULT_SUGGESTIONS: Intent[] = ['price', 'looksmaxx', 'gallery']

/**
 * Messages to operation calls: extract entities, classify (rules, refined by the LLM when
 * unsure and configured), call the intent's operation through the same runtime as HTTP, and
 * word the answer with suggested actions that are valid calls of this API.
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
  const registry = new Map(ctx.operations.map((op) => [op.id, op]))
  const contractName = contractNamesOf(ctx)
  const { recipient, problem } = resolveRecipient(entities, request.wallet, contractName)
  const input: IntentInput = {
    entities,
    // Reads may be about anyone the message names; money only ever goes to the recipient.
    subject: entities.addresses[0] ?? request.wallet,
    recipient,
    recipientProblem: problem,
    requestWallet: request.wallet,
    contractName,
  }
  const base = {
    confidence: classification.confidence,
    suggestions: classification.top.length ? classification.top : DEFAULT_SUGGESTIONS,
    entities,
    classifiedBy,
  }
  const runner = createRunner(ctx, registry)
  const result = entities.invalidAmounts.length ? invalidAmount(classification, entities.invalidAmounts) : await answerIntent(classification, input, runner)
  return { ...base, ...result, recipient: result.recipient ?? null, actions: dedupe(result.actions) }
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
function invalidAmount(classification: Classification, raws: string[]): Answer {
  const message = `Not a usable amount: ${raws.map((r) => `"${r.length > 40 ? `${r.slice(0, 37)}…` : r}"`).join(', ')}. Write a decimal number of at most 15 digits before the point and 18 after it (in wei: a whole number), e.g. "0.05 eth" or "225k tokens".`
  return { intent: classification.intent, answer: message, data: null, actions: [], operationId: null, error: { code: 'INVALID_AMOUNT', message } }
}

type Runner = {
  has(operationId: string): boolean
  get(operationId: string): AnyOperation | undefined
  run(operationId: string, input: Record<string, unknown>): Promise<Outcome>
  action(call: Call): ChatAction | undefined
}

type Answer = Pick<ChatResult, 'intent' | 'answer' | 'data' | 'actions' | 'operationId' | 'error'> & { recipient?: Recipient | null }

async function answerIntent(classification: Classification, input: IntentInput, runner: Runner): Promise<Answer> {
  const intent = classification.intent
  if (intent === 'unclear') return unclear(classification, input, runner)
  if (intent === 'compare') return compare(input, runner)
  if (intent === 'multi_burn') return multiBurn(input, runner)
  const tokensWanted = input.entities.amounts.find((a) => a.token === 'MC')?.value
  if (intent === 'swap' && tokensWanted && !ethAmountOf(input.entities, true)) return swapForTokens(tokensWanted, input, runner)
  const spec = INTENT_TABLE[intent]
  const operationId = spec.operations.find((id) => runner.has(id))
  if (!operationId) {
    return {
      intent,
      answer: `I understood "${intent.replace(/_/g, ' ')}", but this capability is not available on this deployment yet.`,
      data: null,
      actions: [
        runner.action({ operationId: 'get_agent_index', input: {}, label: 'Every endpoint of this deployment' }),
        ...closestActions(classification, input, runner, intent),
      ].filter((a): a is ChatAction => a !== undefined),
      operationId: null,
      error: null,
    }
  }
  const built = spec.input(input, operationId)
  if (isMissing(built) && spec.whenMissing && runner.has(spec.whenMissing.operationId)) {
    const read = spec.whenMissing
    const readInput = read.input(input)
    const outcome = await runner.run(read.operationId, readInput)
    if (outcome.ok) {
      return {
        intent,
        answer: read.answer(outcome.data, input, built),
        data: outcome.data,
        actions: [runner.action({ operationId: read.operationId, input: readInput, label: 'The same data, directly' })].filter((a): a is ChatAction => a !== undefined),
        operationId: read.operationId,
        error: null,
      }
    }
  }
  if (isMissing(built)) {
    const hint = built.hint.charAt(0).toUpperCase() + built.hint.slice(1)
    return { intent, answer: `I understood "${intent.replace(/_/g, ' ')}". ${hint}`, data: null, actions: fallbackActions(intent, input, runner), operationId: null, error: null }
  }
  const op = runner.get(operationId)!
  const recipient = spec.pays && input.recipient && !input.recipientProblem ? input.recipient : null
  if (op.method !== 'GET') {
    // The chat never writes: a POST operation becomes a suggested call, not a call.
    const action = runner.action({ operationId, input: built, label: spec.description })
    const required = ((jsonSchemaOf(op.input, 'input').required ?? []) as string[]).join(', ')
    return {
      intent,
      answer: action
        ? `The chat does not send writes: make the suggested call, ${op.method} ${op.path}.${recipient ? ` It is built for ${recipientWords(recipient, input.requestWallet)}.` : ''}`
        : `The chat does not send writes: call ${op.method} ${op.path} with ${required || 'its fields'}.`,
      data: null,
      actions: action ? [action] : fallbackActions(intent, input, runner),
      operationId: null,
      error: null,
      recipient: action ? recipient : null,
    }
  }
  const outcome = await runner.run(operationId, built)
  if (!outcome.ok) {
    return {
      intent,
      answer: `The ${operationId} call was refused (${outcome.code}): ${outcome.message}`,
      data: null,
      actions: fallbackActions(intent, input, runner),
      operationId,
      error: { code: outcome.code, message: outcome.message },
    }
  }
  const primary = runner.action({ operationId, input: built, label: 'The same data, directly' })
  const next = (spec.next?.(input, outcome.data) ?? []).map((call) => runner.action(call))
  return {
    intent,
    answer: spec.answer(outcome.data, input),
    data: outcome.data,
    actions: [primary, ...next].filter((a): a is ChatAction => a !== undefined),
    operationId,
    error: null,
    recipient,
  }
}

function isMissing(value: Record<string, unknown> | Missing): value is Missing {
  return typeof (value as Missing).missing === 'string' && typeof (value as Missing).hint === 'string'
}

/** Actions of other intents that need nothing missing, for answers that could not be given. */
function fallbackActions(intent: Intent, input: IntentInput, runner: Runner): ChatAction[] {
  const related: Partial<Record<Intent, Call[]>> = {
    vote: [{ operationId: 'list_proposals', input: {}, label: 'List governance proposals' }],
    queue_proposal: [{ operationId: 'list_proposals', input: {}, label: 'List governance proposals' }],
    execute_proposal: [{ operationId: 'list_proposals', input: {}, label: 'List governance proposals' }],
    veto: [{ operationId: 'list_proposals', input: {}, label: 'List governance proposals' }],
    proposal_detail: [{ operationId: 'list_proposals', input: {}, label: 'List governance proposals' }],
    cross_chain_looksmaxx: [{ operationId: 'get_bridge_info', input: {}, label: 'Bridges to MegaETH' }],
    stake: [{ operationId: 'get_defi_staking', input: input.recipient ? { address: input.recipient.address } : {}, label: 'Staking stats' }],
    unstake: [{ operationId: 'get_defi_staking', input: input.recipient ? { address: input.recipient.address } : {}, label: 'Staking stats' }],
    add_liquidity: [{ operationId: 'get_amm_quote', input: {}, label: 'Pair reserves and spot price' }],
  }
  const calls = related[intent] ?? [{ operationId: 'get_agent_index', input: {}, label: 'Every endpoint of this API' }]
  return calls.map((c) => runner.action(c)).filter((a): a is ChatAction => a !== undefined)
}

/** The default call of an intent when it needs nothing it lacks and its operation exists. */
function defaultAction(intent: Intent, input: IntentInput, runner: Runner): ChatAction | undefined {
  if (intent === 'compare' || intent === 'multi_burn') return undefined
  const spec = INTENT_TABLE[intent]
  const operationId = spec.operations.find((id) => runner.has(id))
  if (!operationId) return undefined
  const built = spec.input(input, operationId)
  if (isMissing(built)) return undefined
  return runner.action({ operationId, input: built, label: spec.description })
}

function closestActions(classification: Classification, input: IntentInput, runner: Runner, except?: Intent): ChatAction[] {
  const candidates = [...classification.ranked.map((r) => r.intent), ...DEFAULT_SUGGESTIONS].filter((i) => i !== except)
  const actions: ChatAction[] = []
  for (const intent of new Set(candidates)) {
    const action = defaultAction(intent, input, runner)
    if (action) actions.push(action)
    if (actions.length === 3) break
  }
  return actions
}

function unclear(classification: Classification, input: IntentInput, runner: Runner): Answer {
  const top = classification.top.length ? classification.top : DEFAULT_SUGGESTIONS
  const list = top.map((i) => `${i.replace(/_/g, ' ')} ("${INTENT_TABLE[i].example}")`).join(', ')
  return {
    intent: 'unclear',
    answer: `I am not sure what you mean. Closest: ${list}.`,
    data: null,
    actions: closestActions(classification, input, runner),
    operationId: null,
    error: null,
  }
}

type Side = { who: string; data?: any; error?: { code: string; message: string } }

async function compare(input: IntentInput, runner: Runner): Promise<Answer> {
  const { entities } = input
  const who: string[] = [...entities.parties]
  if (who.length === 1 && input.requestWallet && !who.includes(input.requestWallet)) who.push(input.requestWallet)
  const base = { intent: 'compare' as const, operationId: 'get_identity' }
  if (who.length < 2) {
    return { ...base, answer: 'Name two wallets or .mega names to compare, e.g. "compare alice.mega vs bob.mega" (or one, with your wallet as context).', data: null, actions: [], error: null }
  }
  if (!runner.has('get_identity')) {
    return { ...base, operationId: null, answer: 'Comparing wallets is not available on this deployment yet.', data: null, actions: [], error: null }
  }
  const pair = who.slice(0, 2)
  const sides: Side[] = await Promise.all(
    pair.map(async (w) => {
      const outcome = await runner.run('get_identity', { addressOrName: w })
      return outcome.ok ? { who: w, data: outcome.data } : { who: w, error: { code: outcome.code, message: outcome.message } }
    }),
  )
  const failed = sides.find((s) => s.error)
  const actions = pair.map((w) => runner.action({ operationId: 'get_identity', input: { addressOrName: w }, label: `Profile of ${w}` })).filter((a): a is ChatAction => !!a)
  if (failed) {
    return { ...base, answer: `Could not read ${failed.who} (${failed.error!.code}): ${failed.error!.message}`, data: null, actions, error: failed.error! }
  }
  const [a, b] = sides.map((s) => s.data) as [any, any]
  const row = (d: any) => ({
    address: d.address,
    name: d.name,
    portraits: d.burns?.total ?? 0,
    tokensBurned: d.burns?.totalBurned ?? 0,
    coin: d.balances?.coin ?? 0,
    nfts: d.nfts?.count ?? 0,
    tier: d.tier?.name ?? null,
    reputation: d.reputation?.score ?? null,
  })
  const [ra, rb] = [row(a), row(b)]
  const label = (r: ReturnType<typeof row>) => r.name ?? r.address
  const leader =
    ra.portraits !== rb.portraits ? (ra.portraits > rb.portraits ? ra : rb) : ra.coin !== rb.coin ? (ra.coin > rb.coin ? ra : rb) : undefined
  const line = (r: ReturnType<typeof row>) =>
    `${label(r)}: ${r.portraits} portraits, ${r.coin.toLocaleString('en-US', { maximumFractionDigits: 2 })} MEGACHAD, ${r.nfts} NFTs, tier ${r.tier}`
  return {
    ...base,
    answer: `${line(ra)}; ${line(rb)}. ${leader ? `${label(leader)} is ahead.` : 'Even.'}`,
    data: { wallets: [a, b], sideBySide: [ra, rb], leader: leader ? leader.address : null },
    actions,
    error: null,
  }
}

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
async function swapForTokens(tokens: string, input: IntentInput, runner: Runner): Promise<Answer> {
  const wanted = Number(tokens)
  const base = { intent: 'swap' as const, error: null }
  const ask = `Say how much ETH to spend, e.g. "swap 0.1 eth for megachad".`
  if (input.recipientProblem) return { ...base, answer: input.recipientProblem, data: null, actions: [], operationId: null }
  if (!runner.has('get_price') || !runner.has('get_swap_quote')) {
    return { ...base, answer: `I cannot price ${fmt(wanted)} MEGACHAD in ETH on this deployment. ${ask}`, data: null, actions: fallbackActions('swap', input, runner), operationId: null }
  }
  const price = await runner.run('get_price', {})
  const ethPerCoin = price.ok ? Number((price.data as any).price?.ethPerCoin) : NaN
  if (!price.ok || !(ethPerCoin > 0)) {
    const error = price.ok ? { code: 'DEX_QUOTE_FAILED', message: 'the pool gave no price' } : { code: price.code, message: price.message }
    return { ...base, answer: `Could not price ${fmt(wanted)} MEGACHAD in ETH (${error.code}): ${error.message}. ${ask}`, data: null, actions: [], operationId: 'get_price', error }
  }
  const recipient = input.recipient ? { recipient: input.recipient.address } : {}
  const ethNeeded = ethCeil(wanted * ethPerCoin * 1.03)
  if (ethNeeded === undefined) {
    return { ...base, answer: `${fmt(wanted)} MEGACHAD would cost more ETH than exists: no pool sells that many. ${ask}`, data: null, actions: [], operationId: 'get_price' }
  }
  let ethAmount = ethNeeded
  let quote = await runner.run('get_swap_quote', { ethAmount, ...recipient })
  const coinOut = (outcome: typeof quote) => (outcome.ok ? Number((outcome.data as any).quote?.coinOut) : NaN)
  if (quote.ok && coinOut(quote) > 0 && coinOut(quote) < wanted) {
    // Price impact: scale up by the shortfall, with the same 3 % to spare.
    const retry = ethCeil(Number(ethAmount) * (wanted / coinOut(quote)) * 1.03)
    const second = retry === undefined ? undefined : await runner.run('get_swap_quote', { ethAmount: retry, ...recipient })
    if (retry !== undefined && second?.ok) [ethAmount, quote] = [retry, second]
  }
  const action = runner.action({ operationId: 'get_swap_quote', input: { ethAmount, ...recipient }, label: `Quote ${ethAmount} ETH` })
  const next = (INTENT_TABLE.swap.next?.(input, null) ?? []).map((call) => runner.action(call))
  const actions = [action, ...next].filter((a): a is ChatAction => a !== undefined)
  if (!quote.ok) {
    return {
      ...base,
      answer: `At the spot price ${fmt(wanted)} MEGACHAD cost about ${ethAmount} ETH, but the live quote was refused (${quote.code}): ${quote.message}`,
      data: null,
      actions,
      operationId: 'get_swap_quote',
      error: { code: quote.code, message: quote.message },
    }
  }
  const out = coinOut(quote)
  const swap = (quote.data as any).swap
  const words = swap?.data
    ? ` The router call sends ${ethAmount} ETH to ${swap.router} (the swap router); the MEGACHAD go to ${recipientWords(input.recipient!, input.requestWallet)}.`
    : ` No transaction yet: the recipient is left as ${swap?.params?.recipient ?? '<YOUR_ADDRESS>'}. ${noRecipientHint(input.entities)}`
  return {
    ...base,
    answer:
      (out >= wanted
        ? `About ${ethAmount} ETH buys ${fmt(wanted)} MEGACHAD: the live quote for ${ethAmount} ETH is about ${fmt(out, 0)} MEGACHAD (2% slippage applied to the minimum).`
        : `${fmt(wanted)} MEGACHAD is more than the pool sells at a fair price: ${ethAmount} ETH buys only about ${fmt(out, 0)} (price impact). Try a smaller amount.`) + words,
    data: quote.data,
    actions,
    operationId: 'get_swap_quote',
    recipient: swap?.data ? input.recipient : null,
  }
}

const BURN_TOKENS = 225_000

async function multiBurn(input: IntentInput, runner: Runner): Promise<Answer> {
  const count = input.entities.count ?? 2
  const tokensRequired = count * BURN_TOKENS
  const usdmRequired = count
  const data: Record<string, unknown> = { count, tokensRequired, usdmRequired, wallet: null, canAfford: null }
  const actions: Array<ChatAction | undefined> = []
  const base = { intent: 'multi_burn' as const, operationId: null as string | null, error: null }
  let answer = `${count} portraits take ${tokensRequired.toLocaleString('en-US')} tokens (${count} × 225,000, half burned, half to the fund) and ${usdmRequired} USDm in fees.`
  if (!input.entities.count) answer = `Assuming 2 (say "burn 3 times" for another count): ${answer}`
  // "burn 3 times" plans for the caller: its wallet first, else an address the message asks
  // about ("can 0x… afford 3 burns"). The swap and the plan are suggested only for the caller's
  // own wallet: reading another's balance never builds a transaction that pays it.
  const subject = ownWallet(input) ?? input.subject
  const own = !!subject && subject === ownWallet(input)
  if (subject && runner.has('get_wallet')) {
    const wallet = await runner.run('get_wallet', { address: subject })
    const tokens = runner.has('get_portal_tokens') ? await runner.run('get_portal_tokens', { address: subject }) : undefined
    if (!wallet.ok) return { ...base, operationId: 'get_wallet', answer: `${answer} Could not read the wallet (${wallet.code}): ${wallet.message}`, data, actions: [], error: { code: wallet.code, message: wallet.message } }
    const coin = Number((wallet.data as any).balances?.coin ?? 0)
    const usdmEntry = tokens?.ok ? ((tokens.data as any).tokens ?? []).find((t: any) => t.symbol === 'USDm') : undefined
    const usdm = usdmEntry ? Number(usdmEntry.balance) : null
    const tokensShort = Math.max(0, tokensRequired - coin)
    const canAfford = tokensShort === 0 && (usdm === null ? null : usdm >= usdmRequired)
    Object.assign(data, { wallet: { address: subject, coin, usdm }, tokensShort, canAfford })
    base.operationId = 'get_wallet'
    answer += ` ${subject} holds ${coin.toLocaleString('en-US', { maximumFractionDigits: 2 })} tokens${usdm === null ? '' : ` and ${usdm} USDm`}: ${
      canAfford ? 'enough for all of them.' : tokensShort > 0 ? `${tokensShort.toLocaleString('en-US', { maximumFractionDigits: 2 })} tokens short${usdm !== null && usdm < usdmRequired ? `, and ${usdmRequired - usdm} USDm short` : ''}.` : 'enough tokens, but not enough USDm.'
    }`
    if (own && tokensShort > 0 && runner.has('get_price')) {
      const price = await runner.run('get_price', {})
      const ethPerCoin = price.ok ? Number((price.data as any).price?.ethPerCoin) : NaN
      if (Number.isFinite(ethPerCoin) && ethPerCoin > 0) {
        // 3 % over the spot estimate covers the quote's 2 % slippage and price impact.
        const eth = (tokensShort * ethPerCoin * 1.03).toFixed(6).replace(/\.?0+$/, '')
        data.estimatedEthForShortfall = eth
        actions.push(runner.action({ operationId: 'get_swap_quote', input: { ethAmount: eth, recipient: subject }, label: `Quote buying the missing tokens (~${eth} ETH), tokens to ${subject}` }))
      }
    }
    if (own) {
      actions.push(runner.action({ operationId: 'get_looksmaxx_plan', input: { wallet: subject }, label: `Plan of the first looksmaxx for ${subject}` }))
      answer += ` The suggested calls build transactions for ${recipientWords(input.recipient!, input.requestWallet)}.`
    }
  } else {
    answer += ' Send your wallet to check whether it can afford them.'
    actions.push(runner.action({ operationId: 'get_price', input: {}, label: 'Token price and burn cost' }))
  }
  return { ...base, answer, data, actions: actions.filter((a): a is ChatAction => a !== undefined), recipient: own ? input.recipient : null }
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

/** Keeps only the fields the operation's input object names (aliases of a field are offered). */
function fitInput(op: AnyOperation, input: Record<string, unknown>): Record<string, unknown> {
  const shape = (op.input as unknown as { shape?: Record<string, unknown> }).shape
  if (!shape) return input
  return Object.fromEntries(Object.entries(input).filter(([key, value]) => key in shape && value !== undefined))
}

function createRunner(ctx: Context, registry: Map<string, AnyOperation>): Runner {
  return {
    has: (id) => registry.has(id),
    get: (id) => registry.get(id),
    async run(operationId, raw) {
      const op = registry.get(operationId)!
      try {
        const input = parseOperationInput(op, fitInput(op, raw))
        const { status, body } = await runOperation(ctx, op, input, { headers: {}, transport: 'chat', requestId: randomUUID() })
        if (status >= 400) {
          const error = (body as { error?: { code?: string; message?: string } })?.error
          return { ok: false, code: error?.code ?? `HTTP_${status}`, message: error?.message ?? `answered ${status}` }
        }
        return { ok: true, data: body as Record<string, unknown> }
      } catch (error) {
        const appError = toAppError(error)
        if (appError.status >= 500) ctx.log.error({ err: error, operation: operationId }, 'chat call failed')
        return { ok: false, code: appError.code, message: appError.code === 'INTERNAL_ERROR' ? 'internal error' : appError.message }
      }
    },
    action(call) {
      const op = registry.get(call.operationId)
      if (!op) return undefined
      const body = fitInput(op, call.input)
      // A suggestion must be a valid call: it is dropped if the operation would refuse it.
      if (!op.input.safeParse(body).success) return undefined
      let path = op.path
      const query: Record<string, unknown> = {}
      for (const [key, value] of Object.entries(body)) {
        if (path.includes(`{${key}}`)) path = path.replace(`{${key}}`, encodeURIComponent(String(value)))
        else query[key] = value
      }
      const qs = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString()
      return {
        label: call.label,
        endpoint: op.method === 'GET' && qs ? `${path}?${qs}` : path,
        method: op.method,
        body: op.method === 'GET' ? query : body,
        operationId: op.id,
      }
    },
  }
}
