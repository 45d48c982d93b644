import type { EventBus, Invalidation, ProtocolEvent } from './port.ts'

/** One process: events go straight to this process's subscribers (embedded mode). */
export function createMemoryBus(): EventBus {
  const listeners = new Set<(event: ProtocolEvent) => void>()
  const invalidationListeners = new Set<(message: Invalidation) => void>()
  return {
    async publish(event) {
      for (const listener of listeners) listener(event)
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    async publishInvalidation(message) {
      for (const listener of invalidationListeners) listener(message)
    },
    subscribeInvalidations(listener) {
      invalidationListeners.add(listener)
      return () => invalidationListeners.delete(listener)
    },
    // One process: nothing can come between a publish and its listeners.
    subscribeReconnects: () => () => {},
    async close() {
      listeners.clear()
      invalidationListeners.clear()
    },
  }
}
