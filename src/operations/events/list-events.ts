import { z } from 'zod'
import { defineOperation } from '../define.ts'
import { queryInt } from '../schemas.ts'
import { lastEventId, listEventsAfter } from '../../store/events.ts'

/**
 * The event stream's history as pages: what `GET /api/events` replays after a Last-Event-ID,
 * for a client that polls (an MCP agent: a tool cannot hold a stream open) or catches up.
 */
export const listEvents = defineOperation({
  id: 'list_events',
  method: 'GET',
  path: '/api/events/history',
  summary: 'Protocol events (burns, stats) after an event id, oldest first: the event stream as pages',
  description:
    'The stored events of GET /api/events (burn: a portrait minted; stats: totals changed), oldest first. Start with after=0 or the lastEventId of a connected event; pass the answer\'s lastEventId as the next after while more is true.',
  tags: ['events'],
  limit: 'expensive',
  input: z.object({
    after: z
      .string()
      .regex(/^\d{1,19}$/, { error: 'must be an event id (a decimal number below 2^63)' })
      .refine((value) => BigInt(value) < 2n ** 63n, { error: 'must be an event id (a decimal number below 2^63)' })
      .default('0')
      .describe('Events after this id (default 0: from the first)'),
    limit: queryInt({ min: 1, max: 500, default: 100, description: 'Events per page (1 to 500)' }),
  }),
  output: z.object({
    events: z.array(z.object({ id: z.string(), type: z.enum(['burn', 'stats']), data: z.record(z.string(), z.unknown()) })),
    lastEventId: z.string().describe('The id of the last event of this page (the next page\'s after), or after itself when the page is empty'),
    headEventId: z.string().describe('The newest event id stored now'),
    more: z.boolean().describe('Whether newer events than this page exist'),
  }),
  errors: [],
  uses: ['db'],
  async handler(ctx, { after, limit }) {
    const [events, head] = await Promise.all([listEventsAfter(ctx.db, BigInt(after), limit), lastEventId(ctx.db)])
    const last = events.at(-1)?.id ?? after
    return { events, lastEventId: last, headEventId: head, more: BigInt(head) > BigInt(last) }
  },
})
