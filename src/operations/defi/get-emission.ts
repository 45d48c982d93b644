import { z } from 'zod'
import { defineOperation } from '../define.ts'
import { wei } from '../schemas.ts'
import { readEmission } from '../../chain/reads/read-emission.ts'
import { CHAIN_ID, fmt } from './shared.ts'

export const getEmission = defineOperation({
  id: 'get_emission',
  mcp: { tool: 'get_defi', as: 'emission' },
  method: 'GET',
  path: '/api/defi/emission',
  summary: 'MG emission schedule (225 weeks) and its split between the mogger venue, the jester venue and the treasury',
  tags: ['defi-reads'],
  input: z.object({}),
  output: z.object({
    chainId: z.number().int(),
    totalWeeks: z.number().int(),
    startTime: z.number().int(),
    currentWeek: z.number().int(),
    weeklyEmission: wei,
    weeklyEmissionFormatted: z.string(),
    totalDistributed: wei,
    split: z.object({
      moggerBps: z.number().int(),
      jesterBps: z.number().int(),
      treasuryBps: z.number().int(),
      moggerPct: z.number().describe('The same split in percent (bps / 100)'),
      jesterPct: z.number(),
      treasuryPct: z.number(),
    }),
    projected: z.array(z.object({ week: z.number().int(), emission: wei, emissionFormatted: z.string() })),
  }),
  errors: ['UPSTREAM_FAILED'],
  requires: ['emissionController'],
  uses: ['chain'],
  async handler(ctx) {
    const e = await readEmission(ctx.chain)
    return {
      chainId: CHAIN_ID, totalWeeks: Number(e.totalWeeks), startTime: Number(e.startTime), currentWeek: Number(e.currentWeek),
      weeklyEmission: e.weeklyEmission.toString(), weeklyEmissionFormatted: fmt(e.weeklyEmission), totalDistributed: e.totalDistributed.toString(),
      split: {
        moggerBps: Number(e.split.moggerBps), jesterBps: Number(e.split.jesterBps), treasuryBps: Number(e.split.treasuryBps),
        moggerPct: Number(e.split.moggerBps) / 100, jesterPct: Number(e.split.jesterBps) / 100, treasuryPct: Number(e.split.treasuryBps) / 100,
      },
      projected: e.projected.map((v, i) => ({ week: Number(e.currentWeek) + i, emission: v.toString(), emissionFormatted: fmt(v) })),
    }
  },
})
