import { getWallet } from '../../operations/wallet/get-wallet.ts'
import { getPortalTokens } from '../../operations/portal/get-portal-tokens.ts'
import { getPrice } from '../../operations/market/get-price.ts'
import { getSwapQuote } from '../../operations/swap/get-swap-quote.ts'
import { getLooksmaxxPlan } from '../../operations/looksmaxx/get-looksmaxx-plan.ts'
import { formatUnits } from 'viem'
import { BURN_TOTAL_TOKENS, INFRA_FEE_WEI, TOKEN_DECIMALS } from '../../chain/constants.ts'
import { recipientWords } from '../recipient.ts'
import { call, type Call, type ChatAction } from '../runner.ts'
import { fmt } from '../words.ts'
import type { IntentHandler, Reply } from './define-intent.ts'
import { BURN_WORDS } from './looksmaxx.ts'
import { ownWallet } from './wallets.ts'

/** USDm paid per portrait (the x402 fee), from the one definition. */
const FEE_USDM = Number(formatUnits(INFRA_FEE_WEI, TOKEN_DECIMALS))

/**
 * "burn 3 times": count × the burn and count × the fee, and whether the wallet can afford them.
 * The plan is the caller's: its wallet first, else an address the message asks about ("can 0x…
 * afford 3 burns"). The swap and the plan are suggested only for the caller's own wallet:
 * reading another's balance never builds a transaction that pays it.
 */
export const multiBurn: IntentHandler = {
  description: `Several portraits at once: count × ${BURN_WORDS.total} tokens and count × ${BURN_WORDS.fee}, and whether the wallet can afford it`,
  example: 'burn 3 times',
  operations: [getWallet, getPortalTokens, getPrice],
  async reply(ctx, runner): Promise<Reply> {
    const count = ctx.entities.count ?? 2
    const tokensRequired = count * BURN_TOTAL_TOKENS
    const usdmRequired = count * FEE_USDM
    const data: Record<string, unknown> = { count, tokensRequired, usdmRequired, wallet: null, canAfford: null }
    const calls: Call[] = []
    const reply = { operationId: null as string | null, error: null }
    let answer = `${count} portraits take ${fmt(tokensRequired, 0)} tokens (${count} × ${BURN_WORDS.total}, half burned, half to the fund) and ${fmt(usdmRequired)} USDm in fees.`
    if (!ctx.entities.count) answer = `Assuming 2 (say "burn 3 times" for another count): ${answer}`
    const own = ownWallet(ctx)
    const wallet = own ?? ctx.subject
    if (!wallet || !runner.has(getWallet)) {
      answer += ' Send your wallet to check whether it can afford them.'
      const actions = [runner.action(call(getPrice, {}, 'Token price and burn cost'))].filter((a): a is ChatAction => a !== undefined)
      return { ...reply, answer, data, actions }
    }
    const [read, tokens] = await Promise.all([
      runner.run(getWallet, { address: wallet }),
      runner.has(getPortalTokens) ? runner.run(getPortalTokens, { address: wallet }) : undefined,
    ])
    if (!read.ok) {
      const error = { code: read.code, message: read.message }
      return { ...reply, operationId: getWallet.id, answer: `${answer} Could not read the wallet (${error.code}): ${error.message}`, data, actions: [], error }
    }
    const coin = read.data.balances.coin
    const usdmEntry = tokens?.ok ? tokens.data.tokens.find((t) => t.symbol === 'USDm') : undefined
    const usdm = usdmEntry ? Number(usdmEntry.balance) : null
    const tokensShort = Math.max(0, tokensRequired - coin)
    const canAfford = tokensShort === 0 && (usdm === null ? null : usdm >= usdmRequired)
    Object.assign(data, { wallet: { address: wallet, coin, usdm }, tokensShort, canAfford })
    answer += ` ${wallet} holds ${fmt(coin)} tokens${usdm === null ? '' : ` and ${usdm} USDm`}: ${
      canAfford
        ? 'enough for all of them.'
        : tokensShort > 0
          ? `${fmt(tokensShort)} tokens short${usdm !== null && usdm < usdmRequired ? `, and ${fmt(usdmRequired - usdm)} USDm short` : ''}.`
          : 'enough tokens, but not enough USDm.'
    }`
    if (own && tokensShort > 0 && runner.has(getPrice)) {
      const price = await runner.run(getPrice, {})
      const ethPerCoin = price.ok ? price.data.price.ethPerCoin : NaN
      if (Number.isFinite(ethPerCoin) && ethPerCoin > 0) {
        // 3 % over the spot estimate covers the quote's 2 % slippage and price impact.
        const eth = (tokensShort * ethPerCoin * 1.03).toFixed(6).replace(/\.?0+$/, '')
        data.estimatedEthForShortfall = eth
        calls.push(call(getSwapQuote, { ethAmount: eth, recipient: own }, `Quote buying the missing tokens (~${eth} ETH), tokens to ${own}`))
      }
    }
    if (own) {
      calls.push(call(getLooksmaxxPlan, { wallet: own }, `Plan of the first looksmaxx for ${own}`))
      answer += ` The suggested calls build transactions for ${recipientWords(ctx.recipient!, ctx.requestWallet)}.`
    }
    const actions = calls.map((c) => runner.action(c)).filter((a): a is ChatAction => a !== undefined)
    return { ...reply, operationId: getWallet.id, answer, data, actions, recipient: own ? ctx.recipient : null }
  },
}
