import { formatUnits } from 'viem'
import { getLooksmaxxPlan } from '../../operations/looksmaxx/get-looksmaxx-plan.ts'
import { getPaymentRequirements } from '../../operations/looksmaxx/get-payment-requirements.ts'
import { getCrossChainIntent } from '../../operations/cross-chain/get-cross-chain-intent.ts'
import { getBridgeInfo } from '../../operations/bridge/get-bridge-info.ts'
import { getGaslessBurn } from '../../operations/gasless/get-gasless-burn.ts'
import { getWallet } from '../../operations/wallet/get-wallet.ts'
import { getPrice } from '../../operations/market/get-price.ts'
import { BURN_HALF_WEI, BURN_TOTAL_TOKENS, INFRA_FEE_WEI, TOKEN_DECIMALS } from '../../chain/constants.ts'
import { ethAmountOf } from '../extract.ts'
import { txWords } from '../recipient.ts'
import { call, type Call } from '../runner.ts'
import { fmt, fmtDecimal, stepsWords } from '../words.ts'
import { operationIntent, recipientOf, type IntentInput } from './define-intent.ts'
import { forPayee, ownWallet } from './wallets.ts'

/** The burn in words, from the one definition (225,000 tokens, half to the dead address, half to the fund). */
export const BURN_WORDS = {
  total: fmt(BURN_TOTAL_TOKENS, 0),
  half: fmt(Number(formatUnits(BURN_HALF_WEI, TOKEN_DECIMALS)), 0),
  fee: `${formatUnits(INFRA_FEE_WEI, TOKEN_DECIMALS)} USDm`,
}

const priceCall = call(getPrice, {}, 'Token price and burn cost')

/** The looksmaxx plan of the caller's wallet, when it has one (never of a mentioned address). */
export const planCall = (ctx: IntentInput): Call[] => {
  const wallet = ownWallet(ctx)
  return wallet ? [call(getLooksmaxxPlan, { wallet }, `Get the looksmaxx plan with ready transactions for ${wallet}`)] : []
}

type PlanStep = { step: number; action: string; skip: boolean; transaction?: unknown }
type Tx = { to: string; value?: string; functionName?: string; data?: string }
const isTx = (value: unknown): value is Tx => typeof value === 'object' && value !== null && typeof (value as Tx).to === 'string'

/** A plan's transactions in words, and who receives the tokens and the NFT. */
export function planWords(steps: readonly PlanStep[], ctx: IntentInput): string {
  const sent = steps.flatMap((s) => (!s.skip && isTx(s.transaction) ? [{ ...s, transaction: s.transaction }] : []))
  const words = sent.length ? ` ${stepsWords(sent.map((s) => s.transaction), ctx.contractName, (i) => `Step ${sent[i]!.step} (${sent[i]!.action})`)}.` : ''
  return `Recipient: ${recipientOf(ctx)}; the tokens bought and the NFT go there.${words}`
}

export const looksmaxx = operationIntent({
  description: 'The ordered plan to looksmaxx a wallet: swap if short, burn, fund transfer, submit',
  example: 'looksmaxx for 0xYourWallet',
  operation: getLooksmaxxPlan,
  pays: true,
  input: (ctx) => forPayee(ctx, (wallet) => ({ wallet, ethAmount: ethAmountOf(ctx.entities, false) })),
  answer: (d, ctx) =>
    `Your looksmaxx plan has ${d.steps.length} steps. ${d.wallet} holds ${fmt(d.currentState.coinBalance)} tokens; ${d.currentState.hasEnoughTokens ? `enough for the ${BURN_WORDS.total} burn` : `${fmt(d.currentState.tokensNeeded)} more are needed, the plan buys them first`}. Then pay ${BURN_WORDS.fee} with x402 and submit your portrait. ${planWords(d.steps, ctx)}`,
  next: () => [call(getPaymentRequirements, {}, 'x402 payment requirements of the submission'), priceCall],
})

export const burn = operationIntent({
  description: `Burn ${BURN_WORDS.total} tokens for a portrait: the plan with the two transfers ready to send`,
  example: 'burn my tokens for 0xYourWallet',
  operation: getLooksmaxxPlan,
  pays: true,
  input: (ctx) => forPayee(ctx, (wallet) => ({ wallet })),
  answer: (d, ctx) =>
    `A burn is ${BURN_WORDS.total} tokens: ${BURN_WORDS.half} to the dead address and ${BURN_WORDS.half} to the fund wallet. ${d.wallet} holds ${fmt(d.currentState.coinBalance)}${d.currentState.hasEnoughTokens ? ', enough' : `, ${fmt(d.currentState.tokensNeeded)} short (the plan buys them first)`}; the plan has ${d.steps.length} steps. ${planWords(d.steps, ctx)}`,
  next: (ctx) => {
    const wallet = ownWallet(ctx)
    return wallet ? [call(getGaslessBurn, { address: wallet }, 'Burn without gas (signature, relayed)')] : []
  },
})

export const crossChainLooksmaxx = operationIntent({
  description: 'Looksmaxx from another chain: the bridge step, then the local plan',
  example: 'looksmaxx from base with 0.3 eth',
  operation: getCrossChainIntent,
  pays: true,
  input: (ctx) => {
    const chain = ctx.entities.chain
    if (!chain) return { missing: 'chain', hint: 'Name the chain you come from: ethereum, base, arbitrum, optimism, polygon, bnb or avalanche.' }
    return forPayee(ctx, (wallet) => ({ sourceChain: chain, wallet, amount: ethAmountOf(ctx.entities, true) }))
  },
  answer: (d, ctx) =>
    `From ${d.sourceChain.id}: ${d.steps.length} steps, bridging first, then the looksmaxx plan on chain ${d.destination.chainId}. ${planWords(d.steps, ctx)}`,
  next: () => [call(getBridgeInfo, {}, 'Bridges to MegaETH')],
  related: () => [call(getBridgeInfo, {}, 'Bridges to MegaETH')],
})

export const gasless = operationIntent({
  description: 'Burn without gas: approval state and the EIP-712 request to sign',
  example: 'gasless burn for 0xYourWallet',
  operation: getGaslessBurn,
  pays: true,
  input: (ctx) => forPayee(ctx, (address) => ({ address })),
  answer: (d, ctx) => {
    const state = d.ready
      ? 'Ready: sign the BurnRequest typed data and POST it to /api/gasless/burn; the relayer pays the gas.'
      : `Not ready yet: ${[
          d.approval.status === 'needed' ? 'approve the relayer first (transaction included)' : '',
          d.balance.sufficient ? '' : `the balance (${fmtDecimal(d.balance.balanceFormatted)}) is below ${BURN_WORDS.total}`,
        ].filter(Boolean).join(' and ')}.`
    return `${state} The burn is signed by and burns from ${recipientOf(ctx)}.${d.approval.transaction ? ` The approval ${txWords(d.approval.transaction, ctx.contractName)}.` : ''}`
  },
})

export const schedule = operationIntent({
  description: 'Recurring burns: not automated by the service; what to do each time',
  example: 'burn every week',
  operation: getWallet,
  input: (ctx) => {
    const address = ownWallet(ctx) ?? ctx.subject
    return address
      ? { address }
      : { missing: 'wallet', hint: 'the service does not run recurring burns for you (it never holds your keys); each time, get the plan and send it. Send your wallet to see whether it can burn now.' }
  },
  answer: (d) =>
    `The service does not run recurring burns for you (it never holds your keys). Each time: get the plan and send it; right now ${d.address} ${d.burnEligibility.canBurn ? 'can burn' : `needs ${fmt(d.burnEligibility.tokensNeeded)} more tokens`}.`,
  next: (ctx) => planCall(ctx),
})
