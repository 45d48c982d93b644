import { getWallet } from '../../operations/wallet/get-wallet.ts'
import { getIdentity } from '../../operations/read/get-identity.ts'
import { getDefiNft } from '../../operations/defi/get-defi-nft.ts'
import { call } from '../runner.ts'
import { fmt, fmtDecimal } from '../words.ts'
import { operationIntent } from './define-intent.ts'
import { planCall } from './looksmaxx.ts'
import { subjectOr } from './wallets.ts'

export const wallet = operationIntent({
  description: 'Balances of a wallet and whether it can burn',
  example: 'can 0xYourWallet burn',
  operation: getWallet,
  input: subjectOr,
  answer: (d) =>
    `${d.address} holds ${fmtDecimal(d.balances.eth, 6)} ETH, ${fmt(d.balances.coin)} MEGACHAD and ${d.balances.looksmaxxedNFTs} portrait NFTs. ${d.burnEligibility.canBurn ? 'It can burn for a portrait.' : `It needs ${fmt(d.burnEligibility.tokensNeeded)} more tokens to burn.`}`,
  next: (ctx) => [...planCall(ctx), ...(ctx.subject ? [call(getIdentity, { addressOrName: ctx.subject }, 'Full profile')] : [])],
})

export const identity = operationIntent({
  description: 'Profile of an address or .mega name: balances, portraits, reputation, tier',
  example: 'who is alice.mega',
  operation: getIdentity,
  input: (ctx) => {
    const who = ctx.entities.names[0] ?? ctx.entities.addresses[0] ?? ctx.requestWallet
    return who ? { addressOrName: who } : { missing: 'wallet', hint: 'Name an address or a .mega name.' }
  },
  answer: (d) => `${d.displayName}: tier ${d.tier.name}, ${d.burns.total} portraits, ${d.nfts.count} NFTs held, ${fmt(d.balances.coin)} MEGACHAD.`,
})

export const nftInventory = operationIntent({
  description: 'NFT inventory of a wallet, its boost tier and staking eligibility',
  example: 'how many nfts do i own',
  operation: getDefiNft,
  input: subjectOr,
  answer: (d) =>
    `${d.address} holds ${d.nftCount} portrait NFT${d.nftCount === 1 ? '' : 's'}: staking boost ${d.boostMultiplier}${d.nextTierAt === null ? '' : ` (the next tier at ${d.nextTierAt} NFT${d.nextTierAt === 1 ? '' : 's'})`}; ${d.eligible ? 'eligible' : 'not eligible'} to stake.`,
})
