import { erc721Abi } from 'viem'
import type { Chain } from '../clients.ts'
import { rpcFailed } from '../upstream-error.ts'

/** The boost tiers of both venues (docs/contributors/contracts.md, Common constants): NFTs held → multiplier in bps. */
export const NFT_BOOST_TIERS = [
  { minNfts: 1n, multiplierBps: 10_000n },
  { minNfts: 10n, multiplierBps: 10_750n },
  { minNfts: 25n, multiplierBps: 11_500n },
] as const

export type NftBoost = {
  nftCount: bigint
  /** 0 without an NFT: no staking and no rewards. */
  multiplierBps: bigint
  eligible: boolean
  /** NFTs needed for the next tier, or null at the top tier. */
  nextTierAt: bigint | null
}

/** The tier of an NFT count, as the venues compute it. */
export function nftBoost(nftCount: bigint): NftBoost {
  let multiplierBps = 0n
  let nextTierAt: bigint | null = null
  for (const tier of NFT_BOOST_TIERS) {
    if (nftCount >= tier.minNfts) multiplierBps = tier.multiplierBps
    else if (nextTierAt === null) nextTierAt = tier.minNfts
  }
  return { nftCount, multiplierBps, eligible: nftCount > 0n, nextTierAt }
}

/** The wallet's NFT count and boost, in one eth_call. */
export async function readNftBoost(chain: Chain, address: `0x${string}`): Promise<NftBoost> {
  try {
    const count = await chain.client.readContract({ address: chain.contracts.nft, abi: erc721Abi, functionName: 'balanceOf', args: [address] })
    return nftBoost(count)
  } catch (cause) {
    throw rpcFailed('reading the NFT balance', cause)
  }
}
