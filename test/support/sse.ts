import { buildApp, type useDevnet } from './harness.ts'

export type SseEvent = { id?: string; event: string; data: any; retry?: number }

/**
 * How a stream ended: `end` when the server closed it cleanly, `closed` when the test closed
 * it, `broken` when the connection failed (a reset, a truncated chunk): never taken for an end.
 */
export type StreamEnd = 'end' | 'closed' | 'broken'

/** Reads a text/event-stream response into events as they arrive. */
export async function openStream(url: string, headers: Record<string, string> = {}) {
  const controller = new AbortController()
  const response = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: controller.signal })
  const events: SseEvent[] = []
  const waiters: Array<() => void> = []
  let ended = false
  let closing = false
  let endedBy: StreamEnd | undefined
  let failure: unknown
  const done = (async (): Promise<StreamEnd> => {
    const decoder = new TextDecoder()
    let buffer = ''
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true })
        let split
        while ((split = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, split)
          buffer = buffer.slice(split + 2)
          const event: SseEvent = { event: 'message', data: undefined }
          for (const line of block.split('\n')) {
            const [field, ...rest] = line.split(': ')
            const value = rest.join(': ')
            if (field === 'id') event.id = value
            else if (field === 'event') event.event = value
            else if (field === 'data') event.data = JSON.parse(value)
            else if (field === 'retry') event.retry = Number(value)
          }
          events.push(event)
          waiters.splice(0).forEach((w) => w())
        }
      }
      endedBy = 'end'
    } catch (error) {
      endedBy = closing ? 'closed' : 'broken'
      failure = error
    } finally {
      ended = true
      waiters.splice(0).forEach((w) => w())
    }
    return endedBy!
  })()
  return {
    response,
    events,
    /** True once the stream is over, whichever way. */
    get ended() {
      return ended
    },
    /** How it ended (undefined while open). */
    get endedBy() {
      return endedBy
    },
    /** Resolves with the first event matching, waiting up to `timeoutMs`. */
    async waitFor(match: (e: SseEvent) => boolean, timeoutMs = 10_000): Promise<SseEvent> {
      const deadline = Date.now() + timeoutMs
      for (;;) {
        const found = events.find(match)
        if (found) return found
        if (endedBy === 'broken') throw new Error(`the stream broke before a matching event: ${String(failure)}; got ${JSON.stringify(events.map((e) => e.event))}`)
        if (ended || Date.now() > deadline) throw new Error(`no matching event; got ${JSON.stringify(events.map((e) => e.event))}`)
        await new Promise<void>((resolve) => {
          waiters.push(resolve)
          setTimeout(resolve, 100)
        })
      }
    },
    /** Closes it from this side; resolves to how it ended ('closed', or 'end' when the server was first). */
    close() {
      closing = true
      controller.abort()
      return done
    },
    /** Resolves to how the stream ended. */
    done,
  }
}

/**
 * A service of its own for each stream test, on the file's devnet: heartbeats every 400 ms
 * unless `env` says otherwise, stopped at the file's end (before the devnet is released). Each
 * test has its own, so none depends on the events another published.
 */
export function streamServices(devnet: ReturnType<typeof useDevnet>) {
  return async (env: Record<string, string> = {}) => {
    const app = await buildApp(devnet, { env: { SSE_HEARTBEAT_MS: '400', ...env } })
    devnet.atEnd(() => app.stop())
    return app
  }
}
