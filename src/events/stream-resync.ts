import type { EventBus, ProtocolEvent } from '../adapters/bus/port.ts'
import type { Queryable } from '../store/db.ts'
import { listEventsAfter } from '../store/events.ts'

/** An open event stream, as the resync sees it: where it is, and how to hand it events. */
export type ResyncingStream = {
  /** The id of the last event it sent. */
  lastSent(): bigint
  /** Events it may have missed, oldest first; it skips what it already sent. */
  deliver(events: ProtocolEvent[]): void
  /** More was missed than one read holds: the stream should close so its client pages on. */
  overflow(): void
}

const streamsByBus = new WeakMap<EventBus, Set<ResyncingStream>>()

/**
 * After a bus outage, what every open stream of this instance missed is read from the store in
 * one query (from the oldest position among them) and handed to each, instead of one query
 * per stream: 1,000 clients reconnecting at once made 1,000 reads. When more than `limit`
 * events were missed, every stream is told to close (its client reconnects with Last-Event-ID
 * and replays page by page).
 */
export function resyncOnReconnect(deps: { bus: EventBus; db: Queryable }, stream: ResyncingStream, limit: number): () => void {
  const streams = streamsOf(deps, limit)
  streams.add(stream)
  return () => streams.delete(stream)
}

/** The open streams of the instance behind `bus`, and the one reconnect listener that serves them. */
function streamsOf(deps: { bus: EventBus; db: Queryable }, limit: number): Set<ResyncingStream> {
  const known = streamsByBus.get(deps.bus)
  if (known) return known
  const open = new Set<ResyncingStream>()
  streamsByBus.set(deps.bus, open)
  deps.bus.subscribeReconnects(() => {
    if (open.size === 0) return
    const waiting = [...open]
    const from = waiting.reduce((min, s) => (s.lastSent() < min ? s.lastSent() : min), waiting[0]!.lastSent())
    listEventsAfter(deps.db, from, limit)
      .then((missed) => {
        // A full page means there may be more: every stream closes and its client pages on.
        const more = missed.length === limit
        for (const s of waiting) {
          s.deliver(missed)
          if (more) s.overflow()
        }
      })
      .catch(() => {
        // The store is away too: the clients' next reconnect replays from their Last-Event-ID.
      })
  })
  return open
}
