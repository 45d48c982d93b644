import { z } from 'zod'
import { defineOperation, stream } from '../define.ts'
import { clientKeyOf } from '../runtime/limits.ts'
import { AppError } from '../../errors/app-error.ts'
import { resyncOnReconnect } from '../../events/stream-resync.ts'
import { admitStream, frameOf, joinFanOut, observeEvents, sseFrame, streamStart, type FramedEvent } from '../../events/stream-hub.ts'
import { readEventsAfter } from '../../events/stream-reads.ts'

/** How many missed events a reconnecting client gets at most; older ones are in the gallery. */
const MAX_REPLAY = 500
const RETRY_MS = 3000
/** Event ids are PostgreSQL bigserial: a position beyond it names no event (issue 23). */
const MAX_EVENT_ID = 2n ** 63n - 1n

const HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache, no-transform', connection: 'keep-alive', 'x-accel-buffering': 'no' }

/**
 * The position a client resumes from: the Last-Event-ID header, else ?lastEventId=. Anything
 * but a stored event's id is refused with 400 before the stream opens: an EventSource then
 * stops, where a position the database rejects ended the stream without a close event and the
 * EventSource reconnected with the same header forever.
 */
function resumePosition(header: string | undefined, query: string | undefined): bigint | undefined {
  const [field, raw] = header !== undefined && header.trim() !== '' ? ['Last-Event-ID', header.trim()] : ['lastEventId', query]
  if (raw === undefined) return undefined
  const position = /^\d{1,20}$/.test(raw) ? BigInt(raw) : undefined
  if (position === undefined || position > MAX_EVENT_ID) {
    throw new AppError('INVALID_INPUT', `Invalid ${field}: expected the id of an event this stream sent (a decimal integer below 2^63), got ${JSON.stringify(raw.slice(0, 40))}.`, {
      details: { field },
    })
  }
  return position
}

export const streamEvents = defineOperation({
  id: 'stream_events',
  method: 'GET',
  path: '/api/events',
  summary: 'Server-Sent Events stream of protocol activity: connected, stats, burn, heartbeat, close',
  description:
    'text/event-stream. Every event has an id (stored events their own, the others the stream position); reconnect with Last-Event-ID (or ?lastEventId=) to receive what you missed (per connection at most 500 events and SSE_REPLAY_MAX_BYTES, 64 KiB by default: a longer backlog ends with a close event of reason backlog, and the next connection continues from there). The stream closes itself after 55 seconds with a close event; reconnect to continue (retry hint 3 s). Heartbeats every 15 s. A Last-Event-ID that is not an event id is 400 INVALID_INPUT. One client address holds at most SSE_MAX_STREAMS_PER_ADDRESS streams (20; past it 429 RATE_LIMITED with Retry-After) and an instance at most SSE_MAX_STREAMS (10,000; past it 503 SERVICE_UNAVAILABLE with Retry-After); opening is limited as an expensive read per client address.',
  tags: ['events'],
  input: z.object({
    lastEventId: z
      .string()
      .regex(/^\d{1,20}$/)
      .refine((value) => BigInt(value) <= MAX_EVENT_ID, 'expected an event id below 2^63')
      .optional()
      .describe('Alternative to the Last-Event-ID header'),
  }),
  output: z.object({}).describe('text/event-stream'),
  errors: ['RATE_LIMITED', 'SERVICE_UNAVAILABLE'],
  streams: true,
  mcp: false,
  // A resuming stream reads the store (its replay, uncached): opening is counted per client
  // address like the other uncached reads, so reconnecting in a loop is bounded besides the
  // open-stream cap (issue 23).
  limit: 'expensive',
  uses: ['config', 'db', 'bus', 'clock'],
  async handler(ctx, input, meta) {
    const resumeFrom = resumePosition(meta.headers['last-event-id'], input.lastEventId)
    const release = admitStream(ctx.bus, { maxStreams: ctx.config.SSE_MAX_STREAMS, maxPerAddress: ctx.config.SSE_MAX_STREAMS_PER_ADDRESS }, meta.clientAddress === undefined ? undefined : clientKeyOf(meta.clientAddress))
    return stream(HEADERS, async (sink) => {
      // Join the fan-out before reading the backlog, so nothing falls between the two.
      const early: FramedEvent[] = []
      let caughtUp = false
      let lastSent = 0n
      const send = (event: FramedEvent) => {
        if (event.id <= lastSent) return
        lastSent = event.id
        sink.write(event.bytes)
      }
      const leave = joinFanOut(ctx.bus, { deliver: (event) => (caughtUp ? send(event) : early.push(event)) })
      let stopResync = () => {}
      try {
        sink.write(`retry: ${RETRY_MS}\n\n`)
        // Events that are not stored (connected, the first stats, heartbeat, close) carry the
        // stream position as their id: reconnecting with it resumes exactly here.
        const position = () => String(lastSent)
        const [start, missed] = await Promise.all([streamStart(ctx), resumeFrom === undefined ? undefined : readEventsAfter(ctx.db, resumeFrom, MAX_REPLAY)])
        lastSent = resumeFrom ?? start.head
        sink.write(sseFrame('connected', { lifetimeMs: ctx.config.SSE_LIFETIME_MS, heartbeatMs: ctx.config.SSE_HEARTBEAT_MS, lastEventId: String(start.head) }, position()))
        if (missed) {
          // Bounded in bytes as well as in count (one event at least, so a page always moves on).
          let bytes = 0
          let replayed = 0
          for (const event of missed) {
            const framed = frameOf(event)
            if (replayed > 0 && bytes + framed.bytes.length > ctx.config.SSE_REPLAY_MAX_BYTES) break
            send(framed)
            bytes += framed.bytes.length
            replayed++
          }
          if (replayed < missed.length || (missed.length === MAX_REPLAY && start.head > lastSent)) {
            // More was missed than one replay holds: close at this position, so the client
            // reconnects for the next page instead of skipping to the live events.
            sink.write(sseFrame('close', { reason: 'backlog', reconnect: true, lastEventId: position() }, position()))
            return
          }
        } else {
          sink.write(sseFrame('stats', { totalBurns: start.totalBurns }, position()))
        }
        for (const event of early.splice(0)) send(event)
        caughtUp = true
        // From here on, events published while the bus is down reach the store but not this
        // stream: once it is back they are read from there (send skips what was already sent).
        // Registered only now, so the one read of the instance starts at a real position.
        let overflowed: () => void = () => {}
        const backlog = new Promise<'backlog'>((resolve) => (overflowed = () => resolve('backlog')))
        stopResync = resyncOnReconnect(ctx, { lastSent: () => lastSent, deliver: (events) => observeEvents(ctx.bus, events).forEach(send), overflow: () => overflowed() }, MAX_REPLAY)

        const heartbeat = setInterval(() => sink.write(sseFrame('heartbeat', { at: new Date(ctx.clock()).toISOString() }, position())), ctx.config.SSE_HEARTBEAT_MS)
        let timer: NodeJS.Timeout | undefined
        const lifetime = new Promise<'lifetime'>((resolve) => {
          timer = setTimeout(() => resolve('lifetime'), ctx.config.SSE_LIFETIME_MS)
        })
        const reason = await Promise.race([lifetime, backlog, sink.closed.then(() => 'client' as const)])
        clearInterval(heartbeat)
        clearTimeout(timer)
        if (reason !== 'client') {
          sink.write(sseFrame('close', { reason, reconnect: true, lastEventId: position() }, position()))
        }
      } finally {
        leave()
        stopResync()
        release()
        sink.end()
      }
    })
  },
})
