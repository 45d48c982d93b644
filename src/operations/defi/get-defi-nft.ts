import { z } from 'zod'
import { defineOperation } from '../define.ts'
import { addressIn, addressOut } from '../schemas.ts'
import { NFT_BOOST_TIERS, readNftBoost } from '../../chain/reads/read-nft-boost.ts'
import { CHAIN_ID } from './shared.ts'

export const getDefiNft = defineOperation({
  id: 'get_defi_nft',
  limit: 'expensive',
  // HTTP only: get_defi_staking with an address gives NFT count, boost and eligibility.
  mcp: false,
  method: 'GET',
  path: '/api/defi/nft',
  summary: 'Looksmaxx NFT count, staking boost tier and staking eligibility of a wallet',
  tags: ['defi-reads'],
  input: z.object({ address: addressIn('Wallet to inspect') }),
  output: z.object({
    chainId: z.number().int(),
    address: addressOut,
    nftContract: addressOut,
    nftCount: z.number().int(),
    boostMultiplierBps: z.number().int(),
    boostMultiplier: z.string(),
    eligible: z.boolean(),
    nextTierAt: z.number().int().nullable(),
    tiers: z.array(z.object({ minNfts: z.number().int(), multiplierBps: z.number().int() })),
  }),
  errors: ['INVALID_ADDRESS', 'UPSTREAM_FAILED'],
  uses: ['chain'],
  async handler(ctx, { address }) {
    const b = await readNftBoost(ctx.chain, address)
    return {
      chainId: CHAIN_ID, address, nftContract: ctx.chain.contracts.nft, nftCount: Number(b.nftCount), boostMultiplierBps: Number(b.multiplierBps),
      boostMultiplier: `${(Number(b.multiplierBps) / 10_000).toFixed(3)}x`, eligible: b.eligible,
      nextTierAt: b.nextTierAt === null ? null : Number(b.nextTierAt),
      tiers: NFT_BOOST_TIERS.map((t) => ({ minNfts: Number(t.minNfts), multiplierBps: Number(t.multiplierBps) })),
    }
  },
})
