import type { EventBus, ProtocolEvent } from '../adapters/bus/port.ts'
import { AppError } from '../errors/app-error.ts'
import type { Queryable } from '../store/db.ts'
import { getStreamStart } from '../store/events.ts'

/** One Server-Sent Events frame. */
export const sseFrame = (event: string, data: unknown, id?: string): string =>
  `${id !== undefined ? `id: ${id}\n` : ''}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`

/** A stored event ready for the wire: its id parsed and its frame serialized, once for every stream. */
export type FramedEvent = { id: bigint; bytes: Buffer }

const frames = new WeakMap<ProtocolEvent, FramedEvent>()

/**
 * The frame of a stored event. One event object (a bus delivery, a replay read shared by the
 * streams that asked together) is serialized once however many streams send it: with 10,000
 * clients, a JSON.stringify and a string encoding per client were most of a burn's fan-out.
 */
export function frameOf(event: ProtocolEvent): FramedEvent {
  let framed = frames.get(event)
  if (!framed) frames.set(event, (framed = { id: BigInt(event.id), bytes: Buffer.from(sseFrame(event.type, event.data, event.id)) }))
  return framed
}

/** How many event streams an instance serves: in all, and to one client address. */
export type StreamBounds = { maxStreams: number; maxPerAddress: number }

/** When to try again: a slot frees when a stream ends (each ends within SSE_LIFETIME_MS). */
const RETRY_FULL_SECONDS = 10
const RETRY_ADDRESS_SECONDS = 5

/** An open stream as the fan-out sees it. */
export type FanOutStream = { deliver(event: FramedEvent): void }

type Hub = {
  open: number
  byAddress: Map<string, number>
  streams: Set<FanOutStream>
  /** The newest event id this instance has fanned out or read from the store. */
  head: bigint
  /** Portraits minted, as the newest stats event (or the store) says. */
  totalBurns: number
  /** The one read of the store that positions the instance's first stream. */
  started?: Promise<void>
}

/** The streams of one instance, found by its bus (handlers get a fresh ports object per request). */
const hubs = new WeakMap<EventBus, Hub>()

function hubOf(bus: EventBus): Hub {
  let hub = hubs.get(bus)
  if (hub) return hub
  const created: Hub = { open: 0, byAddress: new Map(), streams: new Set(), head: 0n, totalBurns: 0 }
  hubs.set(bus, created)
  // One subscription for the instance's life: the fan-out, and the position new streams start
  // at (kept while no stream is open, so it never lags behind what was published meanwhile).
  bus.subscribe((event) => {
    const framed = observe(created, event)
    for (const open of created.streams) {
      try {
        open.deliver(framed)
      } catch {
        // A stream that cannot take the event is ending; the others still get it.
      }
    }
  })
  return created
}

/** Notes an event the instance has (fanned out, or read back after a bus outage); its frame. */
function observe(hub: Hub, event: ProtocolEvent): FramedEvent {
  const framed = frameOf(event)
  if (framed.id > hub.head) hub.head = framed.id
  const total = event.type === 'stats' ? event.data.totalBurns : undefined
  // Counts only grow: a stats event overtaken by a newer one (another instance's) changes nothing.
  if (typeof total === 'number' && total > hub.totalBurns) hub.totalBurns = total
  return framed
}

/**
 * Takes a stream slot of the instance behind `bus` for a client address, or refuses: 503 when
 * the instance holds `maxStreams` (another instance may have room), 429 when the address holds
 * `maxPerAddress`. Both carry retryAfterSeconds (the Retry-After header). The slot is taken
 * before anything is awaited, so a flood of concurrent opens is counted as it arrives. Returns
 * the release, which may be called more than once.
 */
export function admitStream(bus: EventBus, bounds: StreamBounds, address: string | undefined): () => void {
  const hub = hubOf(bus)
  if (hub.open >= bounds.maxStreams) {
    throw new AppError('SERVICE_UNAVAILABLE', `This instance serves as many event streams as it may (${bounds.maxStreams}). Retry in ${RETRY_FULL_SECONDS} s.`, {
      details: { retryAfterSeconds: RETRY_FULL_SECONDS, limit: bounds.maxStreams, scope: 'instance' },
    })
  }
  const held = address === undefined ? 0 : (hub.byAddress.get(address) ?? 0)
  if (address !== undefined && held >= bounds.maxPerAddress) {
    throw new AppError(
      'RATE_LIMITED',
      `Too many open event streams from this client address: at most ${bounds.maxPerAddress}. Close one, or retry in ${RETRY_ADDRESS_SECONDS} s.`,
      { details: { retryAfterSeconds: RETRY_ADDRESS_SECONDS, limit: bounds.maxPerAddress, scope: 'ip', class: 'stream' } },
    )
  }
  hub.open++
  if (address !== undefined) hub.byAddress.set(address, held + 1)
  let released = false
  return () => {
    if (released) return
    released = true
    hub.open--
    if (address === undefined) return
    const left = (hub.byAddress.get(address) ?? 1) - 1
    if (left > 0) hub.byAddress.set(address, left)
    else hub.byAddress.delete(address)
  }
}

/**
 * Adds a stream to the instance's fan-out (one bus subscription for all streams, each event
 * framed once and handed to every stream in turn). Returns the leave function.
 */
export function joinFanOut(bus: EventBus, stream: FanOutStream): () => void {
  const hub = hubOf(bus)
  hub.streams.add(stream)
  return () => hub.streams.delete(stream)
}

/**
 * Where a stream that joined the fan-out starts: the newest event id of the instance and the
 * portraits minted. Kept in memory from the events fanned out, so opening a stream costs no
 * statement (1,000 clients connecting made 2,000, which queued in front of the burns: issue
 * 26); the store is read once per instance, by its first stream. Ask after joining: every event
 * newer than the answer reaches the stream through the fan-out.
 */
export async function streamStart(deps: { bus: EventBus; db: Queryable }): Promise<{ head: bigint; totalBurns: number }> {
  const hub = hubOf(deps.bus)
  hub.started ??= getStreamStart(deps.db).then(
    (stored) => {
      if (BigInt(stored.head) > hub.head) hub.head = BigInt(stored.head)
      if (stored.portraits > hub.totalBurns) hub.totalBurns = stored.portraits
    },
    (error: unknown) => {
      // The next stream reads again.
      hub.started = undefined
      throw error
    },
  )
  await hub.started
  return { head: hub.head, totalBurns: hub.totalBurns }
}

/** Events read back from the store (after a bus outage) move the instance's position too. */
export function observeEvents(bus: EventBus, events: ProtocolEvent[]): FramedEvent[] {
  const hub = hubOf(bus)
  return events.map((event) => observe(hub, event))
}
