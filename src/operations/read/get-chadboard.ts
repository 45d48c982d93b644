import { z } from 'zod'
import { formatUnits } from 'viem'
import { defineOperation, respond } from '../define.ts'
import { addressOut, isoTimestamp } from '../schemas.ts'
import { BOARD_IMAGES, BOARD_SIZE } from '../../store/portraits.ts'
import type { HeldBoardRow } from '../../store/portrait-projection.ts'
import type { Profile } from '../../chain/reads/read-profiles.ts'
import { createPageJoiner, JSON_TYPE, renderFragment, type Fragment } from './fragments.ts'

/** The board shows the top burners, each with their latest portraits. */
export const CHADBOARD_SIZE = BOARD_SIZE
export const IMAGES_PER_ENTRY = BOARD_IMAGES

const boardEntry = z.object({
  address: addressOut,
  chainName: z.string().nullable(),
  chainProfile: z.object({ avatar: z.string(), description: z.string(), twitter: z.string(), url: z.string() }).nullable(),
  totalBurns: z.number().int(),
  totalBurned: z.number(),
  latestImage: z.string(),
  latestTimestamp: isoTimestamp,
  images: z.array(z.object({ ipfsUrl: z.string(), timestamp: isoTimestamp, txHash: z.string() })),
  reputation: z.object({ score: z.number().nullable(), count: z.number().int() }),
})

/** Each held board row's entry, serialized once per row and profile (both replaced when they change). */
const fragments = new WeakMap<HeldBoardRow, { profile: Profile | undefined; fragment: Fragment }>()
/** The last answer of each page, reused while its entries are the same objects. */
const joinPage = createPageJoiner()

export const getChadboard = defineOperation({
  id: 'get_chadboard',
  method: 'GET',
  path: '/api/chadboard',
  summary: 'Leaderboard of burners: portraits, tokens burned, name-service profile, ERC-8004 reputation',
  description: `The top ${CHADBOARD_SIZE} burners by portraits (then tokens burned), each with the ${IMAGES_PER_ENTRY} latest images. reputation is the summary of the feedback the address gave the service's ERC-8004 agent (agentId).`,
  tags: ['read'],
  input: z.object({}),
  output: z.object({
    entries: z.array(boardEntry),
    agentId: z.string().nullable(),
  }),
  errors: ['UPSTREAM_FAILED'],
  cacheSeconds: 10,
  staleSeconds: 20,
  dependsOn: ['portraits', 'profiles'],
  uses: ['chain', 'pipeline', 'profiles', 'readModels'],
  async handler(ctx) {
    // The top burners from the chadboard's read model; profiles are held until their events
    // renew them. An entry is serialized again only when its row or its profile changed.
    const board = await ctx.readModels.portraits.board()
    // Burners are stored checksummed (they come from a parsed address), so no hashing here.
    const profiles = await ctx.profiles.get(board.map((t) => t.burner as `0x${string}`))
    const gateway = (cid: string) => ctx.pipeline.deps.ipfs.gatewayUrl(cid)
    const entries = board.map((t) => {
      const p = profiles.get(t.burner.toLowerCase())
      const held = fragments.get(t)
      if (held && held.profile === p) return held.fragment
      const latest = t.images[0]!
      const fragment = renderFragment(
        boardEntry,
        {
          address: t.burner,
          chainName: p?.name ?? null,
          chainProfile: p?.profile ?? null,
          totalBurns: t.totalBurns,
          totalBurned: Number(formatUnits(BigInt(t.totalBurnedWei), 18)),
          latestImage: gateway(latest.imageCid),
          latestTimestamp: latest.timestamp,
          images: t.images.map((i) => ({ ipfsUrl: gateway(i.imageCid), timestamp: i.timestamp, txHash: i.burnTxHash })),
          reputation: p?.reputation ?? { score: null, count: 0 },
        },
        'a chadboard entry',
      )
      fragments.set(t, { profile: p, fragment })
      return fragment
    })
    const { bytes, etag } = joinPage('{"entries":[', entries, `],"agentId":${JSON.stringify(ctx.chain.agentId?.toString() ?? null)}}`)
    return respond(200, bytes, { etag, 'content-type': JSON_TYPE })
  },
})
