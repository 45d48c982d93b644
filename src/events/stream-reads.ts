import type { ProtocolEvent } from '../adapters/bus/port.ts'
import type { Queryable } from '../store/db.ts'
import { getStreamStart, listEventsAfter } from '../store/events.ts'
import { coalescePer } from '../util/coalesce.ts'

/**
 * The reads an opening stream makes, shared by the streams that open together: 1,000 clients
 * connecting at once (or reconnecting at once when their streams reach their lifetime) made
 * 2,000 statements, which the embedded database runs one at a time, and a burn published
 * meanwhile waited behind all of them (issue 26). A read serves only calls made before it
 * started (coalesce), so each stream still reads after it subscribed: nothing published in
 * between is missed.
 */
export const readStreamStart = (db: Queryable): Promise<{ head: string; portraits: number }> => sharedStart(db, undefined)

const sharedStart = coalescePer(async (db: Queryable, calls: Array<undefined>) => {
  const start = await getStreamStart(db)
  return calls.map(() => start)
})

/**
 * Events after a position, oldest first, at most `limit`: one statement per distinct position
 * among the streams asking together (reconnecting clients mostly share theirs). Callers get
 * the same event objects, so each event is framed once (frameOf).
 */
export const readEventsAfter = (db: Queryable, after: bigint, limit: number): Promise<ProtocolEvent[]> => sharedEventsAfter(db, { after, limit })

const sharedEventsAfter = coalescePer(async (db: Queryable, asks: Array<{ after: bigint; limit: number }>) => {
  const reads = new Map<string, Promise<ProtocolEvent[]>>()
  const keyOf = (ask: { after: bigint; limit: number }) => `${ask.after}:${ask.limit}`
  for (const ask of asks) if (!reads.has(keyOf(ask))) reads.set(keyOf(ask), listEventsAfter(db, ask.after, ask.limit))
  return Promise.all(asks.map((ask) => reads.get(keyOf(ask))!))
})
