import { z } from 'zod'
import { defineOperation } from '../define.ts'
import { addressIn } from '../schemas.ts'
import { readProposeEligibility } from '../../chain/reads/read-propose-eligibility.ts'
import { CHAIN_ID, eligibilityJson, eligibilityOut } from './shared.ts'

export const getProposeEligibility = defineOperation({
  id: 'get_propose_eligibility',
  // HTTP only: build_propose_tx echoes the eligibility.
  mcp: { tool: 'get_governance', as: 'propose_eligibility' },
  method: 'GET',
  path: '/api/defi/governance/propose-tx',
  summary: "Who may propose: this week's top 3 burners of the ranking (this or last week), and whether proposer is one",
  tags: ['defi-reads'],
  input: z.object({ proposer: addressIn('Would-be proposer').optional() }),
  output: z.object({ chainId: z.number().int(), ...eligibilityOut }),
  errors: ['INVALID_ADDRESS', 'UPSTREAM_FAILED'],
  cacheControl: 'no-store',
  requires: ['ranking'],
  uses: ['chain'],
  async handler(ctx, { proposer }) {
    return { chainId: CHAIN_ID, ...eligibilityJson(await readProposeEligibility(ctx.chain, proposer), proposer) }
  },
})
