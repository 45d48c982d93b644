import { z } from 'zod'
import { defineOperation } from '../define.ts'
import { queryInt } from '../schemas.ts'
import { readProposals } from '../../chain/reads/read-proposals.ts'
import { CHAIN_ID, proposalJson, proposalOut } from './shared.ts'

export const listProposals = defineOperation({
  id: 'list_proposals',
  mcp: { tool: 'get_governance', as: 'proposals' },
  method: 'GET',
  path: '/api/defi/governance/proposals',
  summary: 'Governance proposals, newest first, with state and tally',
  tags: ['defi-reads'],
  input: z.object({ limit: queryInt({ min: 1, max: 100, default: 20, description: 'How many proposals (default 20)' }) }),
  output: z.object({ chainId: z.number().int(), proposalCount: z.number().int(), proposals: z.array(proposalOut) }),
  errors: ['UPSTREAM_FAILED'],
  requires: ['governance'],
  uses: ['chain'],
  async handler(ctx, { limit }) {
    const r = await readProposals(ctx.chain, limit)
    return { chainId: CHAIN_ID, proposalCount: Number(r.proposalCount), proposals: r.proposals.map(proposalJson) }
  },
})
