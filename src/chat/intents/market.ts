import { getPrice } from '../../operations/market/get-price.ts'
import { getStats } from '../../operations/token/get-stats.ts'
import { getBridgeInfo } from '../../operations/bridge/get-bridge-info.ts'
import { getSwapQuote } from '../../operations/swap/get-swap-quote.ts'
import { getGallery } from '../../operations/read/get-gallery.ts'
import { getChadboard } from '../../operations/read/get-chadboard.ts'
import { getCrossChainIntent } from '../../operations/cross-chain/get-cross-chain-intent.ts'
import { call } from '../runner.ts'
import { fmt } from '../words.ts'
import { operationIntent } from './define-intent.ts'
import { ownWallet } from './wallets.ts'

export const price = operationIntent({
  description: 'Token price in ETH and what a burn costs',
  example: 'whats the price of megachad',
  operation: getPrice,
  input: () => ({}),
  answer: (d) =>
    `1 ETH buys about ${fmt(d.price.coinPerEth, 0)} MEGACHAD; a burn of ${fmt(d.burnCost.tokensRequired, 0)} tokens costs about ${fmt(d.burnCost.estimatedEth, 6)} ETH plus ${d.burnCost.infraFeeUsdm} USDm.`,
  next: () => [call(getSwapQuote, { ethAmount: '0.1' }, 'Quote 0.1 ETH')],
})

export const stats = operationIntent({
  description: 'Supply, tokens burned and portraits minted',
  example: 'stats',
  operation: getStats,
  input: () => ({}),
  answer: (d) => `${fmt(d.totalBurns, 0)} portraits minted; ${fmt(d.tokensBurned, 0)} tokens burned; circulating supply ${fmt(d.circulatingSupply, 0)}.`,
  next: () => [call(getGallery, { limit: 5 }, 'Latest portraits'), call(getChadboard, {}, 'Leaderboard')],
})

export const bridge = operationIntent({
  description: 'How to bring ETH and USDm to the chain',
  example: 'how do i bridge to megaeth',
  operation: getBridgeInfo,
  input: () => ({}),
  answer: (d) => `Bridges to ${d.chain.name} (chain ${d.chain.chainId}): ${d.bridges.map((b) => b.name).join(', ') || 'none listed'}.`,
  next: (ctx) => {
    const wallet = ownWallet(ctx)
    const chain = ctx.entities.chain
    return wallet && chain ? [call(getCrossChainIntent, { sourceChain: chain, wallet }, `Looksmaxx from ${chain} for ${wallet}`)] : []
  },
})
