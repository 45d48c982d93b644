import { z } from 'zod'
import { defineOperation } from '../define.ts'
import { addressOut, isoTimestamp, queryInt } from '../schemas.ts'
import { listDefiActivity } from '../../store/defi-activity.ts'
import { CHAIN_ID, fmt } from './shared.ts'
import { summarizeActivity } from './activity-summary.ts'

export const getActivity = defineOperation({
  id: 'get_activity',
  mcp: { tool: 'get_defi', as: 'activity' },
  limit: 'expensive',
  method: 'GET',
  path: '/api/defi/activity',
  summary: 'Unified DeFi activity feed, newest first: burns, stakes, unstakes, claims, ranking sends, governance events',
  description: 'Served from the indexer: rows with block > indexed head − blocks, newest first, at most limit. Kinds: burn, stake, unstake, claim, send, proposal_created, vote, proposal_queued, proposal_executed, proposal_vetoed.',
  tags: ['defi-reads'],
  input: z.object({
    limit: queryInt({ min: 1, max: 200, default: 50, description: 'How many items (1–200, default 50)' }),
    blocks: queryInt({ min: 100, max: 50_000, default: 2000, description: 'Lookback window in blocks (100–50,000, default 2000)' }),
  }),
  output: z.object({
    chainId: z.number().int(),
    indexedHead: z.number().int().nullable(),
    fromBlock: z.number().int().nullable(),
    count: z.number().int(),
    items: z.array(
      z.object({
        kind: z.string(),
        blockNumber: z.number().int(),
        summary: z.string().describe('One sentence for a person: "0xf39F…2266 staked 1,000 MC on the mogger venue (MC)"'),
        logIndex: z.number().int(),
        txHash: z.string(),
        actor: addressOut.nullable(),
        amount: z.string().nullable(),
        amountFormatted: z.string().nullable(),
        details: z.record(z.string(), z.unknown()),
        timestamp: isoTimestamp,
      }),
    ),
  }),
  errors: [],
  cacheSeconds: 2,
  // Burns are token transfers; the rest are the DeFi contracts' events, both renewed as indexed.
  dependsOn: ['token', 'defi'],
  // A display feed no transaction is built from: one refresh runs while the last answer is served.
  staleSeconds: 5,
  uses: ['db'],
  async handler(ctx, { limit, blocks }) {
    const { head, rows } = await listDefiActivity(ctx.db, blocks, limit)
    const items = rows.map((r) => ({
      kind: r.kind, blockNumber: Number(r.blockNumber), summary: summarizeActivity(r), logIndex: r.logIndex, txHash: r.txHash, actor: r.actor,
      amount: r.amount, amountFormatted: r.amount === null ? null : fmt(BigInt(r.amount)), details: r.extra, timestamp: r.time.toISOString(),
    }))
    return {
      chainId: CHAIN_ID, indexedHead: head === null ? null : Number(head), fromBlock: head === null ? null : Math.max(0, Number(head) - blocks + 1),
      count: items.length, items,
    }
  },
})
