import type { Logger as PinoLogger } from 'pino'

export type NewHeads = {
  /** Whether a newHeads subscription is open now. */
  live(): boolean
  /** Subscriptions opened so far (the first, then one per reconnection). */
  subscriptions(): number
  close(): void
}

export type NewHeadsOptions = {
  url: string
  /** A message sent this often keeps an idle connection open (MegaETH drops one after 30 s without). */
  keepaliveMs: number
  /** A new head; also called once per (re)subscription, for what came while there was none. */
  onHead(block?: bigint): void
  log: PinoLogger
}

const RECONNECT_MIN_MS = 250
const RECONNECT_MAX_MS = 10_000

/**
 * Follows the chain's new heads over a websocket `eth_subscribe("newHeads")`, so that what the
 * heads bring is read as they come instead of at the next poll. The connection is kept alive,
 * reopened with backoff when it drops and subscribed again; every (re)subscription calls
 * `onHead` once so what happened while unsubscribed is caught up by an ordinary read. An
 * endpoint that refuses the subscription is left alone (polling serves instead).
 */
export async function followNewHeads(options: NewHeadsOptions): Promise<NewHeads> {
  // Loaded only by a process that follows heads over a websocket.
  const { WebSocket } = await import('ws')
  let socket: InstanceType<typeof WebSocket> | undefined
  let live = false
  let closed = false
  let subscriptions = 0
  let failures = 0
  let keepalive: NodeJS.Timeout | undefined
  let retry: NodeJS.Timeout | undefined
  let nextId = 1

  function connect() {
    if (closed) return
    const ws = new WebSocket(options.url)
    socket = ws
    let subscribeId = 0
    ws.on('open', () => {
      subscribeId = nextId++
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: subscribeId, method: 'eth_subscribe', params: ['newHeads'] }))
      keepalive = setInterval(() => {
        if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ jsonrpc: '2.0', id: nextId++, method: 'eth_chainId', params: [] }))
      }, options.keepaliveMs)
      keepalive.unref()
    })
    ws.on('message', (data) => {
      let message: { id?: number; result?: unknown; error?: { message?: string }; method?: string; params?: { result?: { number?: string } } }
      try {
        message = JSON.parse(data.toString())
      } catch {
        return
      }
      if (message.method === 'eth_subscription') {
        const number = message.params?.result?.number
        options.onHead(typeof number === 'string' ? BigInt(number) : undefined)
        return
      }
      if (message.id !== subscribeId) return
      if (message.error) {
        options.log.warn({ reason: message.error.message }, 'the RPC websocket refuses newHeads subscriptions; polling for new blocks instead')
        closed = true
        ws.close()
        return
      }
      live = true
      failures = 0
      subscriptions++
      if (subscriptions > 1) options.log.info({ subscriptions }, 'new-head subscription restored; catching up')
      else options.log.info('following new heads over the RPC websocket: each block is indexed as it comes')
      options.onHead()
    })
    ws.on('error', () => {
      // 'close' follows and reconnects; the reason is in the close.
    })
    ws.on('close', () => {
      clearInterval(keepalive)
      if (socket === ws) socket = undefined
      const wasLive = live
      live = false
      if (closed) return
      if (wasLive) options.log.info('new-head subscription dropped; reconnecting (polling meanwhile)')
      const delay = Math.min(RECONNECT_MAX_MS, RECONNECT_MIN_MS * 2 ** failures++)
      retry = setTimeout(connect, delay)
      retry.unref()
    })
  }

  connect()
  return {
    live: () => live,
    subscriptions: () => subscriptions,
    close() {
      closed = true
      clearTimeout(retry)
      clearInterval(keepalive)
      socket?.terminate()
    },
  }
}
