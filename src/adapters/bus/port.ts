/** A protocol event as stream clients see it; `id` orders events across every instance. */
export type ProtocolEvent = { id: string; type: 'burn' | 'stats'; data: Record<string, unknown> }

/**
 * Fans stored events out to the stream clients of this instance and, with Redis, of every
 * instance. Storing comes first (the caller's job), so fan-out can be at most once.
 */
export type EventBus = {
  publish(event: ProtocolEvent): Promise<void>
  subscribe(listener: (event: ProtocolEvent) => void): () => void
  close(): Promise<void>
}
