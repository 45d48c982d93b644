/** A protocol event as stream clients see it; `id` orders events across every instance. */
export type ProtocolEvent = { id: string; type: 'burn' | 'stats'; data: Record<string, unknown> }

/**
 * A change of data that cached answers depend on (see `cache/freshness.ts`), sent to every
 * instance. `block`: the block the change is in, when known (decimal string).
 */
export type Invalidation = { origin: string; topics: string[]; block?: string }

/**
 * Fans stored events out to the stream clients of this instance and, with Redis, of every
 * instance. Storing comes first (the caller's job), so fan-out can be at most once.
 * Invalidations travel on a channel of their own; they are not stored.
 */
export type EventBus = {
  publish(event: ProtocolEvent): Promise<void>
  subscribe(listener: (event: ProtocolEvent) => void): () => void
  publishInvalidation(message: Invalidation): Promise<void>
  subscribeInvalidations(listener: (message: Invalidation) => void | Promise<void>): () => void
  /**
   * Called when the bus is connected again after an outage (Redis restarted or unreachable):
   * the events and invalidations published meanwhile never reached this instance. Events are
   * stored first, so listeners read what they missed from the store; invalidations are not, so
   * every cached answer must be treated as changed. The in-process bus never calls it.
   */
  subscribeReconnects(listener: () => void): () => void
  close(): Promise<void>
}
