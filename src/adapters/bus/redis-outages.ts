import type { Redis } from 'ioredis'

/** Where an outage is told (the service's logger, at warn). */
export type Warn = (fields: Record<string, unknown>, message: string) => void

/**
 * Logs a Redis connection's outage once when it begins and once when it ends. ioredis emits
 * 'error' on every reconnection attempt (a few a second), and a client with no 'error'
 * listener prints "[ioredis] Unhandled error event" to stderr each time.
 */
export function reportOutages(client: Redis, what: string, warn: Warn | undefined): void {
  let down = false
  client.on('error', (error: Error) => {
    if (down) return
    down = true
    warn?.({ err: error }, `${what}: Redis connection lost; reconnecting`)
  })
  client.on('ready', () => {
    if (!down) return
    down = false
    warn?.({}, `${what}: Redis connection back`)
  })
}
