import { z } from 'zod'
import { defineOperation } from '../define.ts'
import { walletIn, addressOut } from '../schemas.ts'
import { NFT_BOOST_TIERS, readNftBoost } from '../../chain/reads/read-nft-boost.ts'
import { CHAIN_ID } from './shared.ts'
import { listPortraitsOf } from '../../store/portraits.ts'

/** Recent looksmaxxed portraits listed with a wallet's NFT inventory. */
const RECENT = 10

export const getDefiNft = defineOperation({
  id: 'get_defi_nft',
  limit: 'expensive',
  // HTTP only: get_defi_staking with an address gives NFT count, boost and eligibility.
  mcp: { tool: 'get_defi', as: 'nft' },
  method: 'GET',
  path: '/api/defi/nft',
  summary: 'Looksmaxx NFT count, staking boost tier and staking eligibility of a wallet',
  tags: ['defi-reads'],
  input: z.object({ address: walletIn('Wallet to inspect') }),
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
    recent: z
      .array(z.object({ tokenId: z.string(), burnTxHash: z.string(), ipfsUrl: z.string(), timestamp: z.string() }))
      .describe('The portraits this wallet looksmaxxed, newest first (up to 10)'),
  }),
  errors: ['INVALID_ADDRESS', 'UPSTREAM_FAILED'],
  dependsOn: ['portraits'],
  uses: ['chain', 'db', 'pipeline'],
  async handler(ctx, { address }) {
    const [b, portraits] = await Promise.all([readNftBoost(ctx.chain, address), listPortraitsOf(ctx.db, address, RECENT)])
    return {
      chainId: CHAIN_ID, address, nftContract: ctx.chain.contracts.nft, nftCount: Number(b.nftCount), boostMultiplierBps: Number(b.multiplierBps),
      boostMultiplier: `${(Number(b.multiplierBps) / 10_000).toFixed(3)}x`, eligible: b.eligible,
      nextTierAt: b.nextTierAt === null ? null : Number(b.nextTierAt),
      tiers: NFT_BOOST_TIERS.map((t) => ({ minNfts: Number(t.minNfts), multiplierBps: Number(t.multiplierBps) })),
      recent: portraits.map((p) => ({ tokenId: p.tokenId, burnTxHash: p.burnTxHash, ipfsUrl: ctx.pipeline.deps.ipfs.gatewayUrl(p.imageCid), timestamp: p.mintedAt.toISOString() })),
    }
  },
})
