import type { Address } from 'viem'
import { AGENT_INTENTS } from '../operations/agent/intents.ts'
import { ethAmountOf, tokenAmountOf, type Entities, type Token } from './extract.ts'
import { noRecipientHint, recipientWords, txWords, type Recipient } from './recipient.ts'

export const INTENTS = AGENT_INTENTS
export type Intent = (typeof AGENT_INTENTS)[number]

/** What an intent's input is built from: the message's entities and the request's wallet. */
export type IntentInput = {
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

/** A call of an operation of the registry: by id, with its raw input (query or body). */
export type Call = { operationId: string; input: Record<string, unknown>; label: string }

/** What an intent needs that the message and the context did not give. */
export type Missing = { missing: 'wallet' | 'recipient' | 'proposalId' | 'amount' | 'chain' | 'two wallets'; hint: string }

export type IntentSpec = {
  /** One line for the GET documentation. */
  description: string
  /** A message that reaches this intent. */
  example: string
  /**
   * The operations behind the intent, in preference: the first one present in the registry
   * is called. `compare` and `multi_burn` are composed by the engine from these.
   */
  operations: string[]
  /** The input of the first available operation, or what is missing. */
  input(ctx: IntentInput, operationId: string): Record<string, unknown> | Missing
  /** A short answer in words from the operation's data. */
  answer(data: any, ctx: IntentInput): string
  /** Follow-up calls worth suggesting (filtered against the registry by the engine). */
  next?(ctx: IntentInput, data: any): Call[]
  /**
   * A read that still answers when `input` lacks something ("what can I stake?" has no amount):
   * its data and answer, which says what to add, instead of only asking for it.
   */
  whenMissing?: { operationId: string; input(ctx: IntentInput): Record<string, unknown>; answer(data: any, ctx: IntentInput, missing: Missing): string }
  /**
   * Builds transactions for the caller (recipient.ts): its input takes the recipient, never the
   * subject, and the answer names the recipient in words and in `recipient`.
   */
  pays?: boolean
}

const needWallet: Missing = { missing: 'wallet', hint: 'Send your wallet address (in the message or as `wallet`).' }

/**
 * The wallet a transaction is built for: the recipient (the request's wallet or an explicit
 * "to 0x…"), or what is missing. Never the subject: an address merely mentioned receives nothing.
 */
export function payee(ctx: IntentInput): Address | Missing {
  if (ctx.recipientProblem) return { missing: 'recipient', hint: ctx.recipientProblem }
  if (!ctx.recipient) return { missing: 'wallet', hint: noRecipientHint(ctx.entities) }
  return ctx.recipient.address
}

/** The caller's own wallet (the usable recipient), for plans that read it first. */
export const ownWallet = (ctx: IntentInput): Address | undefined => (ctx.recipient && !ctx.recipientProblem ? ctx.recipient.address : undefined)

/** "0x… (your wallet)": the recipient of this answer's transactions, in words. */
const to = (ctx: IntentInput) => (ctx.recipient ? recipientWords(ctx.recipient, ctx.requestWallet) : 'the wallet that sends them')

/** What each transaction of a plan pays and to whom: "step 1 sends 0.5 ETH to 0x… (swapRouter), calling exactInputSingle". */
function stepsWords(steps: Array<{ to?: string; value?: string; functionName?: string }>, ctx: IntentInput, label = (i: number) => `transaction ${i + 1}`): string {
  return steps.map((tx, i) => `${label(i)} ${txWords(tx, ctx.contractName)}`).join('; ')
}

/** The looksmaxx plan's transactions in words, and who receives the tokens and the NFT. */
function planWords(d: any, ctx: IntentInput): string {
  const sent = (d.steps ?? []).filter((s: any) => !s.skip && s.transaction?.to)
  const steps = sent.length ? ` ${stepsWords(sent.map((s: any) => s.transaction), ctx, (i) => `Step ${sent[i].step} (${sent[i].action})`)}.` : ''
  return `Recipient: ${to(ctx)}; the tokens bought and the NFT go there.${steps}`
}
const needProposal: Missing = { missing: 'proposalId', hint: 'Name the proposal, e.g. "proposal 3" or "#3".' }

export const fmt = (n: unknown, digits = 2) =>
  typeof n === 'number' && Number.isFinite(n) ? n.toLocaleString('en-US', { maximumFractionDigits: digits }) : String(n ?? '?')

/** A decimal string of an operation ("6844.974336063857105362") worded like `fmt`: "6,844.97". */
const fmtDecimal = (s: unknown, digits = 2) => (typeof s === 'string' && /^\d+(\.\d+)?$/.test(s) ? fmt(Number(s), digits) : fmt(s, digits))

/** A read about the subject (anyone's data may be read). */
const subjectOr = (ctx: IntentInput) => (ctx.subject ? { address: ctx.subject } : needWallet)

/** Input for the caller's transactions: `build(address)` with the payee, or what is missing. */
function forPayee(ctx: IntentInput, build: (address: Address) => Record<string, unknown>): Record<string, unknown> | Missing {
  const who = payee(ctx)
  return typeof who === 'string' ? build(who) : who
}

/** The token a DeFi swap sells: the one written first after a selling verb, else the first named of MC/MG. */
function swapFrom(entities: Entities): 'MC' | 'MG' {
  const pair = entities.tokens.filter((t): t is Extract<Token, 'MC' | 'MG'> => t === 'MC' || t === 'MG')
  const amountToken = entities.amounts.find((a) => a.token === 'MC' || a.token === 'MG')?.token as 'MC' | 'MG' | undefined
  return amountToken ?? pair[0] ?? 'MC'
}

const plan = (ctx: IntentInput): Call[] =>
  ctx.recipient && !ctx.recipientProblem
    ? [{ operationId: 'get_looksmaxx_plan', input: { wallet: ctx.recipient.address }, label: `Get the looksmaxx plan with ready transactions for ${ctx.recipient.address}` }]
    : []
const priceCall: Call = { operationId: 'get_price', input: {}, label: 'Token price and burn cost' }
const proposalsCall: Call = { operationId: 'list_proposals', input: {}, label: 'List governance proposals' }
const safetyCall: Call = { operationId: 'get_safety', input: {}, label: 'Check the safety state before writing' }
/** After a staking plan: the caller's own position (the recipient's), not a mentioned address's. */
const stakingCall = (ctx: IntentInput): Call => ({ operationId: 'get_defi_staking', input: ctx.recipient ? { address: ctx.recipient.address } : {}, label: 'Staking stats and your position' })
const proposalCall = (id: number): Call => ({ operationId: 'get_proposal', input: { id }, label: `Details of proposal ${id}` })

function proposalInput(ctx: IntentInput, extra: Record<string, unknown> = {}) {
  const id = ctx.entities.proposalId
  if (id === undefined) return needProposal
  return { proposalId: id, ...extra }
}

function stakingTx(action: 'stake' | 'unstake' | 'claim') {
  return (ctx: IntentInput): Record<string, unknown> | Missing => {
    const amount = tokenAmountOf(ctx.entities, 'MC')
    if (action !== 'claim' && !amount) return { missing: 'amount', hint: `Say how much to ${action}, e.g. "${action} 1000 MC in mogger".` }
    if (ctx.recipientProblem) return { missing: 'recipient', hint: ctx.recipientProblem }
    // The staking contracts credit the sender: without a recipient the plan is built without
    // the wallet's checks, for whichever wallet sends it.
    return {
      action,
      venue: ctx.entities.venue ?? 'mogger',
      ...(action !== 'claim' && amount ? { amount } : {}),
      ...(ctx.recipient ? { address: ctx.recipient.address } : {}),
    }
  }
}

const apr = (bps: unknown) => (typeof bps === 'number' ? `${fmt(bps / 100, 1)} % APR` : 'no stake yet')

/** What can be staked where (get_defi_staking), the wallet's position, then what to say to act. */
function stakingOptions(d: any, _ctx: IntentInput, missing: Missing): string {
  const venues = `You can stake MEGACHAD in mogger (${fmtDecimal(d.mogger?.totalStakedFormatted, 0)} staked, ${apr(d.mogger?.aprBps)}) or the MC/MG LP token in jester (${fmtDecimal(d.jester?.totalStakedFormatted, 0)} staked, ${apr(d.jester?.aprBps)}); both earn MEGAGOONER (MG).`
  const w = d.wallet
  const position = w
    ? `${w.address} has ${fmtDecimal(w.mogger?.stakedFormatted)} MEGACHAD staked in mogger (${fmtDecimal(w.mogger?.earnedFormatted)} MG earned) and ${fmtDecimal(w.jester?.stakedFormatted)} LP in jester (${fmtDecimal(w.jester?.earnedFormatted)} MG earned)${w.nftCount ? `, ${w.nftCount} NFTs boosting ×${fmt(w.boostMultiplierBps / 10_000, 3)}` : ''}.`
    : 'Send your wallet to see your position.'
  return `${venues} ${position} ${missing.hint}`
}
const stakingRead = { operationId: 'get_defi_staking', input: (ctx: IntentInput) => (ctx.subject ? { address: ctx.subject } : {}), answer: stakingOptions }

/** A staking plan in words: its transactions, and who sends them and is credited. */
const stakingWords = (what: string) => (d: any, ctx: IntentInput) =>
  `${what} plan ready: ${d.executionPlan?.length ?? 0} transaction(s), sent from and credited to ${to(ctx)}: ${stepsWords(d.executionPlan ?? [], ctx)}.`

/** A governance transaction in words: nobody is paid but the contract called, with the ETH it carries. */
const governanceWords = (d: any, ctx: IntentInput) => (d.executionPlan?.length ? ` It ${stepsWords(d.executionPlan, ctx).replace(/^transaction 1 /, '')}.` : '')

/** The subject is the caller's own wallet: a transaction for it may be suggested after a read. */
const ownSubject = (ctx: IntentInput) => !!ctx.subject && !!ctx.recipient && !ctx.recipientProblem && ctx.recipient.address === ctx.subject

/** The swap's transaction in words: what it pays to the router and who receives the tokens. */
function swapWords(d: any, ctx: IntentInput): string {
  if (!d.swap?.data) {
    return `No transaction yet: the recipient is left as ${d.swap?.params?.recipient ?? '<YOUR_ADDRESS>'}. ${noRecipientHint(ctx.entities)}`
  }
  return `The router call ${txWords({ to: d.swap.router, value: d.swap.value, functionName: 'exactInputSingle' }, ctx.contractName)}; the MEGACHAD go to ${to(ctx)}.`
}

/** Answer for operations whose output shape this engine does not know in detail. */
const generic = (what: string) => (data: any) =>
  data && typeof data === 'object' ? `Here is ${what}.` : `No ${what} available.`

/**
 * Intent → operation, in one table: which operation of the registry an intent calls, how its
 * input is built from the entities and the wallet, how the answer is worded, and what to
 * suggest next.
 */
export const INTENT_TABLE: Record<Intent, IntentSpec> = {
  looksmaxx: {
    description: 'The ordered plan to looksmaxx a wallet: swap if short, burn, fund transfer, submit',
    example: 'looksmaxx for 0xYourWallet',
    operations: ['get_looksmaxx_plan'],
    pays: true,
    input: (ctx) => forPayee(ctx, (wallet) => ({ wallet, ...(ethAmountOf(ctx.entities, false) ? { ethAmount: ethAmountOf(ctx.entities, false) } : {}) })),
    answer: (d, ctx) =>
      `Your looksmaxx plan has ${d.steps?.length ?? 0} steps. ${d.wallet} holds ${fmt(d.currentState?.coinBalance)} tokens; ${d.currentState?.hasEnoughTokens ? 'enough for the 225,000 burn' : `${fmt(d.currentState?.tokensNeeded)} more are needed, the plan buys them first`}. Then pay 1 USDm with x402 and submit your portrait. ${planWords(d, ctx)}`,
    next: () => [{ operationId: 'get_looksmaxx_requirements', input: {}, label: 'x402 payment requirements of the submission' }, priceCall],
  },
  cross_chain_looksmaxx: {
    description: 'Looksmaxx from another chain: the bridge step, then the local plan',
    example: 'looksmaxx from base with 0.3 eth',
    operations: ['get_cross_chain_intent'],
    input: (ctx) => {
      if (!ctx.entities.chain) return { missing: 'chain', hint: 'Name the chain you come from: ethereum, base, arbitrum, optimism, polygon, bnb or avalanche.' }
      const amount = ethAmountOf(ctx.entities, true)
      const chain = ctx.entities.chain
      return forPayee(ctx, (wallet) => ({ sourceChain: chain, wallet, ...(amount && /^\d+(\.\d+)?$/.test(amount) ? { amount } : {}) }))
    },
    pays: true,
    answer: (d, ctx) =>
      `From ${d.sourceChain?.id ?? 'your chain'}: ${d.steps?.length ?? 0} steps, bridging first, then the looksmaxx plan on chain ${d.destination?.chainId ?? 4326}. ${planWords(d, ctx)}`,
    next: () => [{ operationId: 'get_bridge_info', input: {}, label: 'Bridges to MegaETH' }],
  },
  swap: {
    description: 'Quote buying the service token with ETH, with the ready router call',
    example: 'buy 0.1 eth of megachad',
    operations: ['get_swap_quote'],
    pays: true,
    input: (ctx) => {
      if (ctx.recipientProblem) return { missing: 'recipient', hint: ctx.recipientProblem }
      // Without a recipient the quote still answers, with a placeholder and no calldata.
      return { ethAmount: ethAmountOf(ctx.entities, true) ?? '0.1', ...(ctx.recipient ? { recipient: ctx.recipient.address } : {}) }
    },
    answer: (d, ctx) => (d.quote ? `${d.quote.ethIn} ETH buys about ${fmt(d.quote.coinOut, 0)} MEGACHAD (2% slippage applied to the minimum)${d.quote.hasEnoughForBurn ? ', enough for a burn' : ''}. ${swapWords(d, ctx)}` : 'Swap venue and contracts; give an ETH amount for a live quote.'),
    next: (ctx) => plan(ctx),
  },
  burn: {
    description: 'Burn 225,000 tokens for a portrait: the plan with the two transfers ready to send',
    example: 'burn my tokens for 0xYourWallet',
    operations: ['get_looksmaxx_plan'],
    pays: true,
    input: (ctx) => forPayee(ctx, (wallet) => ({ wallet })),
    answer: (d, ctx) =>
      `A burn is 225,000 tokens: 112,500 to the dead address and 112,500 to the fund wallet. ${d.wallet} holds ${fmt(d.currentState?.coinBalance)}${d.currentState?.hasEnoughTokens ? ', enough' : `, ${fmt(d.currentState?.tokensNeeded)} short (the plan buys them first)`}; the plan has ${d.steps?.length ?? 0} steps. ${planWords(d, ctx)}`,
    next: (ctx) => (ctx.recipient && !ctx.recipientProblem ? [{ operationId: 'get_gasless_burn', input: { address: ctx.recipient.address }, label: 'Burn without gas (signature, relayed)' }] : []),
  },
  bridge: {
    description: 'How to bring ETH and USDm to the chain',
    example: 'how do i bridge to megaeth',
    operations: ['get_bridge_info'],
    input: () => ({}),
    answer: (d) => `Bridges to ${d.chain?.name ?? 'MegaETH'} (chain ${d.chain?.chainId ?? 4326}): ${(d.bridges ?? []).map((b: any) => b.name).join(', ') || 'none listed'}.`,
    next: (ctx) =>
      ctx.recipient && !ctx.recipientProblem && ctx.entities.chain
        ? [{ operationId: 'get_cross_chain_intent', input: { sourceChain: ctx.entities.chain, wallet: ctx.recipient.address }, label: `Looksmaxx from ${ctx.entities.chain} for ${ctx.recipient.address}` }]
        : [],
  },
  price: {
    description: 'Token price in ETH and what a burn costs',
    example: 'whats the price of megachad',
    operations: ['get_price'],
    input: () => ({}),
    answer: (d) =>
      `1 ETH buys about ${fmt(d.price?.coinPerEth, 0)} MEGACHAD; a burn of ${fmt(d.burnCost?.tokensRequired, 0)} tokens costs about ${fmt(d.burnCost?.estimatedEth, 6)} ETH plus ${d.burnCost?.infraFeeUsdm ?? 1} USDm.`,
    next: () => [{ operationId: 'get_swap_quote', input: { ethAmount: '0.1' }, label: 'Quote 0.1 ETH' }],
  },
  stats: {
    description: 'Supply, tokens burned and portraits minted',
    example: 'stats',
    operations: ['get_stats'],
    input: () => ({}),
    answer: (d) => `${fmt(d.totalBurns, 0)} portraits minted; ${fmt(d.tokensBurned, 0)} tokens burned; circulating supply ${fmt(d.circulatingSupply, 0)}.`,
    next: () => [{ operationId: 'get_gallery', input: { limit: 5 }, label: 'Latest portraits' }, { operationId: 'get_chadboard', input: {}, label: 'Leaderboard' }],
  },
  wallet: {
    description: 'Balances of a wallet and whether it can burn',
    example: 'can 0xYourWallet burn',
    operations: ['get_wallet'],
    input: subjectOr,
    answer: (d) =>
      `${d.address} holds ${fmtDecimal(d.balances?.eth, 6)} ETH, ${fmt(d.balances?.coin)} MEGACHAD and ${d.balances?.looksmaxxedNFTs ?? 0} portrait NFTs. ${d.burnEligibility?.canBurn ? 'It can burn for a portrait.' : `It needs ${fmt(d.burnEligibility?.tokensNeeded)} more tokens to burn.`}`,
    next: (ctx) => [...plan(ctx), ...(ctx.subject ? [{ operationId: 'get_identity', input: { addressOrName: ctx.subject }, label: 'Full profile' }] : [])],
  },
  gallery: {
    description: 'Recent portraits, newest first',
    example: 'show me the latest portraits',
    operations: ['get_gallery'],
    input: (ctx) => ({ limit: Math.min(50, Math.max(1, ctx.entities.count ?? 5)) }),
    answer: (d) => (d.burns?.length ? `The ${d.burns.length} latest portraits, newest first; the newest was minted to ${d.burns[0].burner}.` : 'No portraits minted yet.'),
    next: () => [{ operationId: 'get_gallery', input: { limit: 20 }, label: 'More portraits' }],
  },
  leaderboard: {
    description: 'Top burners (chadboard) with reputation',
    example: 'who burned the most',
    operations: ['get_chadboard'],
    input: () => ({}),
    answer: (d) =>
      d.entries?.length
        ? `Top burner: ${d.entries[0].chainName ?? d.entries[0].address} with ${d.entries[0].totalBurns} portraits (${d.entries.length} burners ranked).`
        : 'Nobody has burned yet: the chadboard is empty.',
    next: (_ctx, d) =>
      (d?.entries ?? []).slice(0, 3).map((e: any) => ({ operationId: 'get_identity', input: { addressOrName: e.address }, label: `Profile of ${e.chainName ?? e.address}` })),
  },
  referral: {
    description: 'Referral stats of an agent and the reward per referred burn',
    example: 'my referral stats',
    operations: ['get_referrals'],
    input: subjectOr,
    answer: (d) =>
      `${d.registered ? `Registered agent, code ${d.referralCode}` : 'Not a registered agent yet'}: ${d.stats?.referralCount ?? 0} referred burns, ${d.stats?.totalEarningsFormatted ?? '0'} earned; ${d.rewardInfo?.rewardPerBurn ?? '11,250'} tokens per referred burn.`,
    next: (ctx, d) => (ownSubject(ctx) && d && !d.registered ? [{ operationId: 'register_referral_agent', input: { wallet: ctx.subject }, label: 'Become a referral agent' }] : []),
  },
  register_agent: {
    description: 'Become a referral agent (earn 11,250 tokens per referred burn)',
    example: 'register me as an agent',
    operations: ['get_referral_agent'],
    input: subjectOr,
    answer: (d) =>
      d.registered
        ? `${d.agent} is already a registered agent (code ${d.referralCode}).`
        : `${d.agent} is not registered yet: the suggested action returns the registerAgent() transaction to send from that wallet.`,
    next: (ctx, d) => (ownSubject(ctx) && !d?.registered ? [{ operationId: 'register_referral_agent', input: { wallet: ctx.subject }, label: 'Get the registration transaction' }] : []),
  },
  gasless: {
    description: 'Burn without gas: approval state and the EIP-712 request to sign',
    example: 'gasless burn for 0xYourWallet',
    operations: ['get_gasless_burn'],
    pays: true,
    input: (ctx) => forPayee(ctx, (address) => ({ address })),
    answer: (d, ctx) =>
      `${d.ready
        ? 'Ready: sign the BurnRequest typed data and POST it to /api/gasless/burn; the relayer pays the gas.'
        : `Not ready yet: ${d.approval?.status === 'needed' ? 'approve the relayer first (transaction included)' : ''}${d.balance?.sufficient === false ? `${d.approval?.status === 'needed' ? ' and ' : ''}the balance (${fmtDecimal(d.balance?.balanceFormatted)}) is below 225,000` : ''}.`} The burn is signed by and burns from ${to(ctx)}.${d.approval?.transaction ? ` The approval ${txWords(d.approval.transaction, ctx.contractName)}.` : ''}`,
  },
  compare: {
    description: 'Two wallets or .mega names side by side',
    example: 'compare alice.mega vs bob.mega',
    operations: ['get_identity', 'get_wallet'],
    input: () => ({}),
    answer: () => '',
  },
  multi_burn: {
    description: 'Several portraits at once: count × 225,000 tokens and count USDm, and whether the wallet can afford it',
    example: 'burn 3 times',
    operations: ['get_wallet', 'get_price'],
    input: () => ({}),
    answer: () => '',
  },
  schedule: {
    description: 'Recurring burns: not automated by the service; what to do each time',
    example: 'burn every week',
    operations: ['get_wallet'],
    input: (ctx) =>
      (ownWallet(ctx) ?? ctx.subject)
        ? { address: (ownWallet(ctx) ?? ctx.subject)! }
        : { missing: 'wallet', hint: 'the service does not run recurring burns for you (it never holds your keys); each time, get the plan and send it. Send your wallet to see whether it can burn now.' },
    answer: (d) =>
      `The service does not run recurring burns for you (it never holds your keys). Each time: get the plan and send it; right now ${d.address} ${d.burnEligibility?.canBurn ? 'can burn' : `needs ${fmt(d.burnEligibility?.tokensNeeded)} more tokens`}.`,
    next: (ctx) => plan(ctx),
  },
  about: {
    description: 'What the service is and does (its ERC-8004 identity)',
    example: 'what is this',
    operations: ['get_agent_info'],
    input: () => ({}),
    answer: (d) =>
      `Burn 225,000 MEGACHAD and pay 1 USDm with x402 to get an AI-enhanced portrait minted as an NFT on MegaETH (chain 4326)${d?.onChain?.agentId ? `; this service is ERC-8004 agent #${d.onChain.agentId}` : ''}. Ask for the price, a plan for your wallet, the gallery or the leaderboard.`,
    next: () => [priceCall, { operationId: 'get_stats', input: {}, label: 'Stats' }, { operationId: 'get_agent_index', input: {}, label: 'Agent index: every endpoint' }],
  },
  identity: {
    description: 'Profile of an address or .mega name: balances, portraits, reputation, tier',
    example: 'who is alice.mega',
    operations: ['get_identity'],
    input: (ctx) => {
      const who = ctx.entities.names[0] ?? ctx.entities.addresses[0] ?? ctx.requestWallet
      return who ? { addressOrName: who } : { missing: 'wallet', hint: 'Name an address or a .mega name.' }
    },
    answer: (d) =>
      `${d.displayName ?? d.address}: tier ${d.tier?.name ?? '?'}, ${d.burns?.total ?? 0} portraits, ${d.nfts?.count ?? 0} NFTs held, ${fmt(d.balances?.coin)} MEGACHAD.`,
  },
  stake: {
    description: 'Stake tokens in a venue (mogger or jester): the transactions to send',
    example: 'stake 1000 mc in mogger',
    operations: ['build_staking_tx'],
    input: stakingTx('stake'),
    whenMissing: stakingRead,
    pays: true,
    answer: stakingWords('Staking'),
    next: (ctx) => [stakingCall(ctx), safetyCall],
  },
  unstake: {
    description: 'Unstake tokens from a venue: the transaction to send',
    example: 'unstake 500 from jester',
    operations: ['build_staking_tx'],
    input: stakingTx('unstake'),
    whenMissing: stakingRead,
    pays: true,
    answer: stakingWords('Unstaking'),
    next: (ctx) => [stakingCall(ctx)],
  },
  claim_rewards: {
    description: 'Claim staking rewards from a venue',
    example: 'claim my rewards from mogger',
    operations: ['build_staking_tx'],
    input: stakingTx('claim'),
    pays: true,
    answer: stakingWords('Claim'),
    next: (ctx) => [stakingCall(ctx)],
  },
  staking_position: {
    description: 'Staking stats of both venues and the wallet position',
    example: 'my staking position',
    operations: ['get_defi_staking'],
    input: (ctx) => (ctx.subject ? { address: ctx.subject } : {}),
    answer: generic('the staking state of both venues'),
  },
  swap_mc_mg: {
    description: 'Swap between MC and MG on the pair: a quote, and the swap plan',
    example: 'swap 1000 mc for mg',
    operations: ['get_amm_quote'],
    input: (ctx) => {
      const from = swapFrom(ctx.entities)
      const amount = tokenAmountOf(ctx.entities, from)
      return amount ? { from, tokenIn: from, amount, amountIn: amount } : {}
    },
    pays: true,
    answer: (d, ctx) => {
      const amount = tokenAmountOf(ctx.entities, swapFrom(ctx.entities))
      const quote = d.quote ? `${fmtDecimal(d.quote.amountOutFormatted)} ${d.quote.to} for ${amount} ${d.quote.from} (${d.quote.priceImpactBps / 100} % price impact).` : 'Here is the MC/MG pair quote.'
      if (!amount) return quote
      return ctx.recipient && !ctx.recipientProblem
        ? `${quote} The suggested swap sends the output to ${to(ctx)}.`
        : `${quote} ${ctx.recipientProblem ?? `No swap transaction without a recipient: ${noRecipientHint(ctx.entities)}`}`
    },
    next: (ctx) => {
      const from = swapFrom(ctx.entities)
      const amount = tokenAmountOf(ctx.entities, from)
      return ctx.recipient && !ctx.recipientProblem && amount
        ? [{ operationId: 'build_amm_swap_tx', input: { from, amount, recipient: ctx.recipient.address }, label: `Swap ${amount} ${from}, output to ${ctx.recipient.address}` }]
        : []
    },
  },
  add_liquidity: {
    description: 'Add MC and MG liquidity to the pair: approve, approve, add',
    example: 'add liquidity 1000 mc and 500 mg',
    operations: ['build_add_liquidity_tx'],
    input: (ctx) => {
      const mc = ctx.entities.amounts.find((a) => a.token === 'MC')?.value
      const mg = ctx.entities.amounts.find((a) => a.token === 'MG')?.value
      if (!mc || !mg) return { missing: 'amount', hint: 'Give both amounts, e.g. "add 1000 MC and 500 MG liquidity".' }
      return forPayee(ctx, (wallet) => ({ amountMC: mc, amountMG: mg, recipient: wallet, address: wallet }))
    },
    pays: true,
    answer: (d, ctx) => `Liquidity plan ready: ${d.executionPlan?.length ?? 0} transaction(s); the LP tokens go to ${to(ctx)}: ${stepsWords(d.executionPlan ?? [], ctx)}.`,
    next: () => [{ operationId: 'get_amm_quote', input: {}, label: 'Pair reserves and spot price' }],
  },
  list_proposals: {
    description: 'Governance proposals with state and tally',
    example: 'show governance proposals',
    operations: ['list_proposals'],
    input: () => ({}),
    answer: (d) => (Array.isArray(d?.proposals) ? `${d.proposals.length} proposals.` : 'Here are the governance proposals.'),
  },
  proposal_detail: {
    description: 'One proposal in detail',
    example: 'proposal 3',
    operations: ['get_proposal'],
    input: (ctx) => (ctx.entities.proposalId === undefined ? needProposal : { id: ctx.entities.proposalId, ...(ctx.subject ? { voter: ctx.subject } : {}) }),
    answer: generic('the proposal'),
  },
  vote: {
    description: 'Vote on a proposal (for, against, abstain): the castVote transaction',
    example: 'vote yes on proposal 2',
    operations: ['build_vote_tx'],
    input: (ctx) => proposalInput(ctx, { support: ctx.entities.support ?? 'for' }),
    answer: (d, ctx) => `Vote ${ctx.entities.support ?? 'for'} on proposal ${ctx.entities.proposalId}: the transaction is ready to send.${governanceWords(d, ctx)}`,
    next: (ctx) => (ctx.entities.proposalId !== undefined ? [proposalCall(ctx.entities.proposalId)] : [proposalsCall]),
  },
  queue_proposal: {
    description: 'Queue a succeeded proposal in the timelock',
    example: 'queue proposal 3',
    operations: ['build_queue_tx'],
    input: (ctx) => proposalInput(ctx),
    answer: (d, ctx) => `Queue transaction for proposal ${ctx.entities.proposalId} ready to send.${governanceWords(d, ctx)}`,
    next: (ctx) => (ctx.entities.proposalId !== undefined ? [proposalCall(ctx.entities.proposalId)] : []),
  },
  execute_proposal: {
    description: 'Execute a queued proposal',
    example: 'execute proposal 3',
    operations: ['build_execute_tx'],
    input: (ctx) => proposalInput(ctx),
    answer: (d, ctx) => `Execute transaction for proposal ${ctx.entities.proposalId} ready to send.${governanceWords(d, ctx)}`,
    next: (ctx) => (ctx.entities.proposalId !== undefined ? [proposalCall(ctx.entities.proposalId)] : []),
  },
  propose: {
    description: 'Whether a wallet may propose (the week\'s top 3 burners) and how',
    example: 'can i propose something',
    operations: ['build_propose_tx'],
    pays: true,
    input: (ctx) => (ctx.recipient && !ctx.recipientProblem ? { proposer: ctx.recipient.address } : {}),
    answer: (d) => (typeof d?.canPropose === 'boolean' ? (d.canPropose ? 'You may propose this week.' : 'Only the week\'s top 3 burners may propose; you are not one of them this week.') : 'Proposal eligibility.'),
  },
  veto: {
    description: 'Veto council: start or cast a veto vote on a proposal',
    example: 'veto proposal 3',
    operations: ['build_veto_tx'],
    pays: true,
    input: (ctx) => {
      if (ctx.entities.proposalId === undefined) return needProposal
      return forPayee(ctx, (voter) => ({ proposalId: ctx.entities.proposalId, support: ctx.entities.support === 'against' ? 'no' : 'yes', voter }))
    },
    answer: (d, ctx) => `Veto vote on proposal ${ctx.entities.proposalId} from ${to(ctx)}: ${d.executionPlan?.length ?? 0} transaction(s) ready to send${d.executionPlan?.length ? `: ${stepsWords(d.executionPlan, ctx)}` : ''}.`,
  },
  emission_schedule: {
    description: 'Emission schedule (225 weeks, quadratic decay) and its split',
    example: 'emission schedule',
    operations: ['get_emission'],
    input: () => ({}),
    answer: generic('the emission schedule'),
  },
  protocol_registry: {
    description: 'Every deployed contract with its address and key functions',
    example: 'list the contract addresses',
    operations: ['get_service_protocol', 'get_portal_protocols'],
    input: () => ({}),
    answer: (d) => (d.contracts ? `${Object.keys(d.contracts).length} contracts on chain ${d.chain?.chainId ?? 4326}.` : `${d.protocols?.length ?? 0} protocols.`),
    next: () => [{ operationId: 'get_portal_protocols', input: {}, label: 'Protocols on the chain' }],
  },
  nft_inventory: {
    description: 'NFT inventory of a wallet, its boost tier and staking eligibility',
    example: 'how many nfts do i own',
    operations: ['get_defi_nft'],
    input: subjectOr,
    answer: generic('the NFT inventory and boost'),
  },
  safety: {
    description: 'Safety state to check before any write',
    example: 'is it safe to stake',
    operations: ['get_safety'],
    input: () => ({}),
    answer: generic('the safety snapshot'),
  },
  activity: {
    description: 'Activity feed: burns, staking, ranking and governance events',
    example: 'recent activity',
    operations: ['get_activity'],
    input: (ctx) => (ctx.entities.count ? { limit: Math.min(200, ctx.entities.count) } : {}),
    answer: generic('the recent activity'),
  },
}

