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
  subscribeInvalidations(listener: (message: Invalidation) => void): () => void
  close(): Promise<void>
}
