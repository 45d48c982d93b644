import { z } from 'zod'
import { defineOperation } from '../define.ts'
import { addressIn, addressOut, hexData, wei } from '../schemas.ts'
import { CHAIN_ID, proposalIdIn, proposalJson, proposalOr404, proposalOut } from './shared.ts'

export const getProposal = defineOperation({
  id: 'get_proposal',
  mcp: { tool: 'get_governance', as: 'proposal' },
  limit: 'expensive',
  method: 'GET',
  path: '/api/defi/governance/proposals/{id}',
  summary: 'One proposal in detail: actions, tally, veto window and (with voter) the voter receipt',
  tags: ['defi-reads'],
  input: z.object({ id: proposalIdIn, voter: addressIn('Voter whose receipt to include').optional() }),
  output: z.object({
    chainId: z.number().int(),
    proposal: proposalOut.extend({
      actions: z.array(z.object({ target: addressOut, value: wei, calldata: hexData })),
      veto: z.object({ startTime: z.number().int(), endTime: z.number().int(), yesVotes: z.string(), noVotes: z.string(), executed: z.boolean(), canExecute: z.boolean() }),
      receipt: z.object({ voter: addressOut, hasVoted: z.boolean(), support: z.string().nullable(), votes: wei }).optional(),
    }),
  }),
  errors: ['INVALID_ADDRESS', 'NOT_FOUND', 'UPSTREAM_FAILED'],
  requires: ['governance', 'vetoCouncil'],
  uses: ['chain'],
  async handler(ctx, { id, voter }) {
    const p = await proposalOr404(ctx.chain, id, voter)
    return {
      chainId: CHAIN_ID,
      proposal: {
        ...proposalJson(p),
        actions: p.actions.map((a) => ({ target: a.target, value: a.value.toString(), calldata: a.calldata })),
        veto: { startTime: Number(p.veto.startTime), endTime: Number(p.veto.endTime), yesVotes: p.veto.yesVotes.toString(), noVotes: p.veto.noVotes.toString(), executed: p.veto.executed, canExecute: p.veto.canExecute },
        ...(p.receipt ? { receipt: { ...p.receipt, votes: p.receipt.votes.toString() } } : {}),
      },
    }
  },
})
