import type { EventBus, ProtocolEvent } from '../adapters/bus/port.ts'
import { AppError } from '../errors/app-error.ts'

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
export const RETRY_FULL_SECONDS = 10
export const RETRY_ADDRESS_SECONDS = 5

/** An open stream as the fan-out sees it. */
export type FanOutStream = { deliver(event: FramedEvent): void }

type Hub = {
  open: number
  byAddress: Map<string, number>
  streams: Set<FanOutStream>
  unsubscribe?: () => void
}

/** The streams of one instance, found by its bus (handlers get a fresh ports object per request). */
const hubs = new WeakMap<EventBus, Hub>()

function hubOf(bus: EventBus): Hub {
  let hub = hubs.get(bus)
  if (!hub) hubs.set(bus, (hub = { open: 0, byAddress: new Map(), streams: new Set() }))
  return hub
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
 * Adds a stream to the instance's fan-out: one bus subscription for all of them, each event
 * framed once and handed to every stream in turn. Returns the leave function.
 */
export function joinFanOut(bus: EventBus, stream: FanOutStream): () => void {
  const hub = hubOf(bus)
  hub.streams.add(stream)
  hub.unsubscribe ??= bus.subscribe((event) => {
    const framed = frameOf(event)
    for (const open of hub.streams) {
      try {
        open.deliver(framed)
      } catch {
        // A stream that cannot take the event is ending; the others still get it.
      }
    }
  })
  return () => {
    hub.streams.delete(stream)
    if (hub.streams.size > 0) return
    hub.unsubscribe?.()
    hub.unsubscribe = undefined
  }
}

/** Open streams of the instance behind `bus` (tests, metrics). */
export const openStreams = (bus: EventBus): number => hubs.get(bus)?.open ?? 0
