import { Redis } from 'ioredis'
import type { EventBus, ProtocolEvent } from './port.ts'

/**
 * Redis pub/sub: an event published by any instance reaches the subscribers of every
 * instance, including this one (through Redis, so all instances see one order).
 */
export async function createRedisBus(url: string, prefix = 'b2c'): Promise<EventBus> {
  const CHANNEL = `${prefix}:events`
  const publisher = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 2 })
  const subscriber = new Redis(url, { lazyConnect: true })
  await Promise.all([publisher.connect(), subscriber.connect()])
  const listeners = new Set<(event: ProtocolEvent) => void>()
  subscriber.on('message', (_channel: string, message: string) => {
    let event: ProtocolEvent
    try {
      event = JSON.parse(message) as ProtocolEvent
    } catch {
      return
    }
    for (const listener of listeners) listener(event)
  })
  await subscriber.subscribe(CHANNEL)
  return {
    async publish(event) {
      await publisher.publish(CHANNEL, JSON.stringify(event))
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    async close() {
      listeners.clear()
      subscriber.disconnect()
      publisher.disconnect()
    },
  }
}
