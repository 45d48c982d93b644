import { z } from 'zod'
import { defineOperation } from '../define.ts'
import { addressOut } from '../schemas.ts'
import { readSafety } from '../../chain/reads/read-safety.ts'
import { CHAIN_ID } from './shared.ts'

export const getSafety = defineOperation({
  id: 'get_safety',
  mcp: { tool: 'get_defi', as: 'safety' },
  method: 'GET',
  path: '/api/defi/safety',
  summary: 'Safety snapshot to check before writes: circuit breaker pause state and guardians, veto council',
  tags: ['defi-reads'],
  input: z.object({}),
  output: z.object({
    chainId: z.number().int(),
    circuitBreaker: z.object({
      paused: z.boolean(),
      pausedAt: z.number().int(),
      autoUnpauseTime: z.number().int(),
      guardians: z.array(addressOut),
      pauseVotes: z.object({ yes: z.number().int(), no: z.number().int() }),
      unpauseVotes: z.object({ yes: z.number().int(), no: z.number().int() }),
    }),
    vetoCouncil: z.object({ councilSize: z.number().int(), vetoThreshold: z.number().int(), vetoWindowSeconds: z.number().int(), members: z.array(addressOut), seatsFilled: z.number().int() }),
    writesSafe: z.boolean(),
  }),
  errors: ['UPSTREAM_FAILED'],
  cacheControl: 'no-store',
  requires: ['circuitBreaker', 'vetoCouncil'],
  uses: ['chain'],
  async handler(ctx) {
    const s = await readSafety(ctx.chain)
    const cb = s.circuitBreaker
    const vc = s.vetoCouncil
    return {
      chainId: CHAIN_ID,
      circuitBreaker: {
        paused: cb.paused, pausedAt: Number(cb.pausedAt), autoUnpauseTime: Number(cb.autoUnpauseTime), guardians: cb.guardians,
        pauseVotes: { yes: Number(cb.pauseVotes.yes), no: Number(cb.pauseVotes.no) }, unpauseVotes: { yes: Number(cb.unpauseVotes.yes), no: Number(cb.unpauseVotes.no) },
      },
      vetoCouncil: { councilSize: Number(vc.councilSize), vetoThreshold: Number(vc.vetoThreshold), vetoWindowSeconds: Number(vc.vetoWindowSeconds), members: vc.members, seatsFilled: vc.seatsFilled },
      writesSafe: !cb.paused,
    }
  },
})
