import { z } from 'zod'
import { formatUnits } from 'viem'
import { defineOperation } from '../define.ts'
import { readTokenSupply } from '../../chain/reads/read-token-supply.ts'
import { countPortraits } from '../../store/portraits.ts'
import { TOKEN_DECIMALS } from '../../chain/constants.ts'

const tokens = (wei: bigint) => Math.floor(Number(formatUnits(wei, TOKEN_DECIMALS)))

export const getStats = defineOperation({
  id: 'get_stats',
  method: 'GET',
  path: '/api/stats',
  summary: 'Token supply, tokens burned, and the number of portraits minted',
  description:
    'tokensBurned is the balance of the dead address (every transfer there counts); totalBurns counts looksmaxx burns redeemed for a portrait. Token amounts are whole tokens.',
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
  async handler(ctx) {
    const [supply, totalBurns] = await Promise.all([readTokenSupply(ctx.chain), countPortraits(ctx.db)])
    return {
      totalSupply: tokens(supply.totalSupply),
      circulatingSupply: tokens(supply.totalSupply - supply.burned),
      tokensBurned: tokens(supply.burned),
      totalBurns,
    }
  },
})
