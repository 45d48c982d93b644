import type { ProtocolEvent } from '../adapters/bus/port.ts'
import type { Queryable } from '../store/db.ts'
import { listEventsAfter } from '../store/events.ts'
import { coalescePer } from '../util/coalesce.ts'

/**
 * Events after a position, oldest first, at most `limit`, for a stream that resumes: one
 * statement per distinct position among the streams asking together (clients reconnecting at
 * once mostly share theirs: the end of a lifetime, a restarted instance), instead of one each.
 * A read serves only the calls made before it started (coalesce), so each stream still reads
 * after it joined the fan-out: nothing published in between is missed. Callers get the same
 * event objects, so each event is framed once (frameOf).
 */
export const readEventsAfter = (db: Queryable, after: bigint, limit: number): Promise<ProtocolEvent[]> => sharedEventsAfter(db, { after, limit })

const sharedEventsAfter = coalescePer(async (db: Queryable, asks: Array<{ after: bigint; limit: number }>) => {
  const reads = new Map<string, Promise<ProtocolEvent[]>>()
  const keyOf = (ask: { after: bigint; limit: number }) => `${ask.after}:${ask.limit}`
  for (const ask of asks) if (!reads.has(keyOf(ask))) reads.set(keyOf(ask), listEventsAfter(db, ask.after, ask.limit))
  return Promise.all(asks.map((ask) => reads.get(keyOf(ask))!))
})
