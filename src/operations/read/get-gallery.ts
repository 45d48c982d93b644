import { z } from 'zod'
import { formatUnits } from 'viem'
import { defineOperation, respond } from '../define.ts'
import { addressOut, isoTimestamp, queryInt } from '../schemas.ts'
import type { HeldPortrait } from '../../store/portrait-projection.ts'
import { createPageJoiner, JSON_TYPE, renderFragment, type Fragment } from './fragments.ts'

const galleryEntry = z.object({
  txHash: z.string(),
  burner: addressOut,
  prompt: z.string(),
  cid: z.string(),
  ipfsUrl: z.string(),
  timestamp: isoTimestamp,
  burnAmount: z.number(),
  tokenId: z.string(),
})

/** Each held portrait's entry, serialized once (the gateway URL is fixed once listening). */
const fragments = new WeakMap<HeldPortrait, Fragment>()
/** The last answer of each page, reused while its entries are the same objects. */
const joinPage = createPageJoiner()

export const getGallery = defineOperation({
  id: 'get_gallery',
  // HTTP only: get_activity (burns) and get_chadboard (images per burner) cover it.
  method: 'GET',
  path: '/api/gallery',
  summary: 'Recent burns redeemed for portraits, newest first',
  description: 'limit 1-50 (default 20), offset 0 or more (default 0); values outside are refused with 400. burnAmount is the whole burn in tokens (225,000).',
  tags: ['read'],
  input: z.object({
    limit: queryInt({ min: 1, max: 50, default: 20, description: 'Page size, 1 to 50' }),
    offset: queryInt({ min: 0, default: 0, description: 'Entries to skip, 0 or more' }),
  }),
  output: z.object({
    burns: z.array(galleryEntry),
    limit: z.number().int(),
    offset: z.number().int(),
  }),
  errors: [],
  cacheSeconds: 5,
  staleSeconds: 10,
  dependsOn: ['portraits'],
  uses: ['pipeline', 'readModels'],
  async handler(ctx, { limit, offset }) {
    // The page from the gallery's read model (current as of every change applied here), as a
    // join of entries validated and serialized once each.
    const rows = await ctx.readModels.portraits.gallery(limit, offset)
    const entries = rows.map((r) => {
      let fragment = fragments.get(r)
      if (!fragment) {
        fragment = renderFragment(
          galleryEntry,
          {
            txHash: r.burnTxHash,
            burner: r.burner,
            prompt: 'looksmaxx',
            cid: r.imageCid,
            ipfsUrl: ctx.pipeline.deps.ipfs.gatewayUrl(r.imageCid),
            timestamp: r.mintedAt.toISOString(),
            burnAmount: Number(formatUnits(BigInt(r.burnAmountWei), 18)),
            tokenId: r.tokenId,
          },
          'a gallery entry',
        )
        fragments.set(r, fragment)
      }
      return fragment
    })
    const { bytes, etag } = joinPage('{"burns":[', entries, `],"limit":${limit},"offset":${offset}}`)
    return respond(200, bytes, { etag, 'content-type': JSON_TYPE })
  },
})
