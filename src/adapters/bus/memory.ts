import type { EventBus, ProtocolEvent } from './port.ts'

/** One process: events go straight to this process's subscribers (embedded mode). */
export function createMemoryBus(): EventBus {
  const listeners = new Set<(event: ProtocolEvent) => void>()
  return {
    async publish(event) {
      for (const listener of listeners) listener(event)
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    async close() {
      listeners.clear()
    },
  }
}
