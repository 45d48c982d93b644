import { z } from 'zod'
import { formatUnits } from 'viem'
import { defineOperation } from '../define.ts'
import { readTokenSupply } from '../../chain/reads/read-token-supply.ts'
import { getPortraitTotals } from '../../store/portraits.ts'
import { TOKEN_DECIMALS } from '../../chain/constants.ts'

const tokens = (wei: bigint) => Math.floor(Number(formatUnits(wei, TOKEN_DECIMALS)))

export const getStats = defineOperation({
  id: 'get_stats',
  // HTTP only: aggregate counters; chat_with_agent answers them (its stats intent).
  method: 'GET',
  path: '/api/stats',
  summary: 'Token supply, tokens burned, and the number of portraits minted',
  description:
    'tokensBurned counts every burn whole, as the gallery and chadboard do: every token sent to the dead address (its balance, burns before the service included) plus, for each burn redeemed for a portrait, the part sent to the fund wallet and a referral agent (225,000 per looksmaxx in all). circulatingSupply is totalSupply minus tokensBurned. totalBurns counts burns redeemed for a portrait. Token amounts are whole tokens.',
  tags: ['token'],
  input: z.object({}),
  output: z.object({
    totalSupply: z.number().nullable(),
    circulatingSupply: z.number(),
    tokensBurned: z.number().nullable(),
    totalBurns: z.number().int(),
  }),
  errors: ['UPSTREAM_FAILED'],
  cacheSeconds: 5,
  staleSeconds: 10,
  dependsOn: ['token', 'portraits'],
  uses: ['chain', 'db'],
  async handler(ctx) {
    const [supply, totals] = await Promise.all([readTokenSupply(ctx.chain), getPortraitTotals(ctx.db)])
    return {
      totalSupply: tokens(supply.totalSupply),
      circulatingSupply: tokens(supply.totalSupply) - tokens(supply.burned + totals.beyondDeadWei),
      tokensBurned: tokens(supply.burned + totals.beyondDeadWei),
      totalBurns: totals.portraits,
    }
  },
})
