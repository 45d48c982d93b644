import { z } from 'zod'
import { defineOperation, stream } from '../define.ts'
import { listEventsAfter, lastEventId } from '../../store/events.ts'
import { countPortraits } from '../../store/portraits.ts'
import type { ProtocolEvent } from '../../adapters/bus/port.ts'
import { resyncOnReconnect } from '../../events/stream-resync.ts'

/** How many missed events a reconnecting client gets at most; older ones are in the gallery. */
const MAX_REPLAY = 500
const RETRY_MS = 3000

const frame = (event: string, data: unknown, id?: string) =>
  `${id !== undefined ? `id: ${id}\n` : ''}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`

export const streamEvents = defineOperation({
  id: 'stream_events',
  method: 'GET',
  path: '/api/events',
  summary: 'Server-Sent Events stream of protocol activity: connected, stats, burn, heartbeat, close',
  description:
    'text/event-stream. Every event has an id (stored events their own, the others the stream position); reconnect with Last-Event-ID (or ?lastEventId=) to receive what you missed (500 at most per connection: a longer backlog ends with a close event of reason backlog, and the next connection continues from there). The stream closes itself after 55 seconds with a close event; reconnect to continue (retry hint 3 s). Heartbeats every 15 s.',
  tags: ['events'],
  input: z.object({ lastEventId: z.string().regex(/^\d+$/).optional().describe('Alternative to the Last-Event-ID header') }),
  output: z.object({}).describe('text/event-stream'),
  errors: [],
  streams: true,
  mcp: false,
  uses: ['config', 'db', 'bus', 'clock'],
  async handler(ctx, input, meta) {
    const resumeFrom = meta.headers['last-event-id'] ?? input.lastEventId
    return stream(
      { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache, no-transform', connection: 'keep-alive', 'x-accel-buffering': 'no' },
      async (sink) => {
        // Subscribe before reading the backlog, so nothing falls between the two.
        const live: ProtocolEvent[] = []
        let caughtUp = false
        let lastSent = 0n
        const send = (event: ProtocolEvent) => {
          if (BigInt(event.id) <= lastSent) return
          lastSent = BigInt(event.id)
          sink.write(frame(event.type, event.data, event.id))
        }
        const unsubscribe = ctx.bus.subscribe((event) => (caughtUp ? send(event) : live.push(event)))
        let stopResync = () => {}
        try {
          sink.write(`retry: ${RETRY_MS}\n\n`)
          // Events that are not stored (connected, the first stats, heartbeat, close) carry the
          // stream position as their id: reconnecting with it resumes exactly here.
          const position = () => String(lastSent)
          const head = await lastEventId(ctx.db)
          const resuming = resumeFrom !== undefined && /^\d+$/.test(resumeFrom)
          lastSent = BigInt(resuming ? resumeFrom : head)
          sink.write(frame('connected', { lifetimeMs: ctx.config.SSE_LIFETIME_MS, heartbeatMs: ctx.config.SSE_HEARTBEAT_MS, lastEventId: head }, position()))
          if (resuming) {
            const missed = await listEventsAfter(ctx.db, lastSent, MAX_REPLAY)
            for (const event of missed) send(event)
            if (missed.length === MAX_REPLAY && BigInt(head) > lastSent) {
              // More was missed than one replay holds: close at this position, so the client
              // reconnects for the next page instead of skipping to the live events.
              sink.write(frame('close', { reason: 'backlog', reconnect: true, lastEventId: position() }, position()))
              return
            }
          } else {
            sink.write(frame('stats', { totalBurns: await countPortraits(ctx.db) }, position()))
          }
          for (const event of live.splice(0)) send(event)
          caughtUp = true
          // From here on, events published while the bus is down reach the store but not this
          // stream: once it is back they are read from there (send skips what was already sent).
          // Registered only now, so the one read of the instance starts at a real position.
          let overflowed: () => void = () => {}
          const backlog = new Promise<'backlog'>((resolve) => (overflowed = () => resolve('backlog')))
          stopResync = resyncOnReconnect(ctx, { lastSent: () => lastSent, deliver: (events) => events.forEach(send), overflow: () => overflowed() }, MAX_REPLAY)

          const heartbeat = setInterval(() => sink.write(frame('heartbeat', { at: new Date(ctx.clock()).toISOString() }, position())), ctx.config.SSE_HEARTBEAT_MS)
          let timer: NodeJS.Timeout | undefined
          const lifetime = new Promise<'lifetime'>((resolve) => {
            timer = setTimeout(() => resolve('lifetime'), ctx.config.SSE_LIFETIME_MS)
          })
          const reason = await Promise.race([lifetime, backlog, sink.closed.then(() => 'client' as const)])
          clearInterval(heartbeat)
          clearTimeout(timer)
          if (reason !== 'client') {
            sink.write(frame('close', { reason, reconnect: true, lastEventId: position() }, position()))
          }
        } finally {
          unsubscribe()
          stopResync()
          sink.end()
        }
      },
    )
  },
})
