import http from 'node:http'
import type { Duplex } from 'node:stream'
import { WebSocket, WebSocketServer, type RawData } from 'ws'

/**
 * What a public JSON-RPC provider does to its clients, each part optional. Faults are drawn
 * from `seed` in the order requests arrive, so the same run of requests meets the same faults.
 */
export type PublicRpcBehaviour = {
  /** Largest eth_getLogs block range; a larger one is refused (`logsErrorStyle` says with which words). */
  maxLogsRange?: number
  /** Largest eth_getLogs answer, in logs; a larger one is refused and a smaller range suggested. */
  maxLogsResults?: number
  /**
   * The words of those refusals. `infura`: -32005 "query returned more than 10000 results. Try
   * with this block range [0x…, 0x…]." and "block range too large"; `alchemy`: -32602 "Log
   * response size exceeded. … this block range should work: [0x…, 0x…]"; `plain`: -32600 "block
   * range too large: at most N blocks" (no suggestion). Default `infura`.
   */
  logsErrorStyle?: 'infura' | 'alchemy' | 'plain'
  /** HTTP requests (a batch counts once) and websocket calls per second; beyond it 429 with Retry-After. */
  requestsPerSecond?: number
  /** Burst allowed above the rate (default: one second's worth). */
  burst?: number
  /** Share of HTTP requests answered 502/503 before reaching the chain (0..1). */
  serverErrorRate?: number
  /** Share of HTTP requests never answered (the client's timeout ends them) (0..1). */
  timeoutRate?: number
  /** Seed of the fault draws (default 1). */
  seed?: number
  /** A websocket with no message from its client for this long is dropped without a close frame (MegaETH: 30 s). 0: never. */
  wsIdleMs?: number
  /** Methods answered as a node that lacks them (-32601, geth's words). */
  refuseMethods?: string[]
  /** Every HTTP request answered 503, as a provider that is down. */
  down?: boolean
}

export type PublicRpcProxy = {
  /** HTTP URL; the websocket endpoint is the same with ws:// (and `/ws`). */
  url: string
  wsUrl: string
  /** HTTP requests received (a batch counts once). */
  requests(): number
  /** Websocket messages received from clients. */
  wsMessages(): number
  /** JSON-RPC calls received, by method (HTTP and websocket, batches flattened). */
  countsByMethod(): Record<string, number>
  /** Every JSON-RPC call received so far, in order. */
  calls(): Array<{ method: string; params: any[]; via: 'http' | 'ws' }>
  /** What was done to the clients: refusals, 429s, 5xx, timeouts, websocket drops. */
  faults(): { logsRange: number; logsResults: number; rateLimited: number; serverErrors: number; timeouts: number; wsDrops: number }
  /** Changes the behaviour from now on (the fields given). */
  set(behaviour: Partial<PublicRpcBehaviour>): void
  /** The next HTTP requests meet these faults, in order, before any drawn one (a test that must meet each). */
  queue(faults: Array<'429' | '5xx' | 'timeout'>): void
  /** Drops every open websocket now, without a close frame. */
  dropWebSockets(): number
  close(): Promise<void>
}

type Call = { jsonrpc?: string; id?: unknown; method?: string; params?: any[] }

/** mulberry32: small, seeded, good enough to spread faults. */
function random(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const hex = (n: number) => `0x${n.toString(16)}`

/**
 * A JSON-RPC proxy (HTTP and websocket) in front of `target` that behaves like a public
 * provider: capped eth_getLogs, 429 with Retry-After past a request rate, occasional 5xx and
 * timeouts, idle websockets dropped. For the rehearsal and the tests; binds 127.0.0.1.
 * The websocket side forwards to the target's websocket endpoint (the devnet serves one on its
 * HTTP port).
 */
export async function startPublicRpcProxy(target: string, initial: PublicRpcBehaviour = {}): Promise<PublicRpcProxy> {
  const behaviour: PublicRpcBehaviour = { ...initial }
  let draw = random(behaviour.seed ?? 1)
  let requests = 0
  let wsMessages = 0
  const counts: Record<string, number> = {}
  const calls: Array<{ method: string; params: any[]; via: 'http' | 'ws' }> = []
  const faults = { logsRange: 0, logsResults: 0, rateLimited: 0, serverErrors: 0, timeouts: 0, wsDrops: 0 }
  const hanging = new Set<http.ServerResponse>()
  const scripted: Array<'429' | '5xx' | 'timeout'> = []
  const sockets = new Set<WebSocket>()

  // Token bucket: `burst` tokens, refilled at the rate.
  let tokens = behaviour.burst ?? behaviour.requestsPerSecond ?? 0
  let refilledAt = Date.now()
  function admit(): { ok: true } | { ok: false; retryAfterSeconds: number } {
    const rate = behaviour.requestsPerSecond
    if (!rate) return { ok: true }
    const burst = behaviour.burst ?? rate
    const now = Date.now()
    tokens = Math.min(burst, tokens + ((now - refilledAt) / 1000) * rate)
    refilledAt = now
    if (tokens >= 1) {
      tokens--
      return { ok: true }
    }
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - tokens) / rate)) }
  }

  function record(call: Call, via: 'http' | 'ws') {
    const method = typeof call.method === 'string' ? call.method : '?'
    counts[method] = (counts[method] ?? 0) + 1
    calls.push({ method, params: Array.isArray(call.params) ? call.params : [], via })
  }

  const rpcError = (id: unknown, code: number, message: string, data?: unknown) => ({ jsonrpc: '2.0', id: id ?? null, error: { code, message, ...(data === undefined ? {} : { data }) } })

  async function forward(body: unknown): Promise<any> {
    const upstream = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    return upstream.json()
  }

  function rangeRefusal(id: unknown, from: number, to: number, cap: number) {
    faults.logsRange++
    switch (behaviour.logsErrorStyle ?? 'infura') {
      case 'alchemy':
        return rpcError(id, -32602, `Log response size exceeded. You can make eth_getLogs requests with up to a ${cap} block range and no limit on the response size, or you can request any block range with a cap of 10K logs in the response. Based on your parameters, this block range should work: [${hex(from)}, ${hex(from + cap - 1)}]`)
      case 'plain':
        return rpcError(id, -32600, `block range too large: at most ${cap} blocks`)
      default:
        return rpcError(id, -32005, `block range too large: the range ${from}-${to} exceeds ${cap} blocks`)
    }
  }

  function resultRefusal(id: unknown, from: number, suggestedTo: number, cap: number) {
    faults.logsResults++
    switch (behaviour.logsErrorStyle ?? 'infura') {
      case 'alchemy':
        return rpcError(id, -32602, `Log response size exceeded. You can make eth_getLogs requests with up to a 2K block range and no limit on the response size, or you can request any block range with a cap of ${cap} logs in the response. Based on your parameters, this block range should work: [${hex(from)}, ${hex(suggestedTo)}]`)
      case 'plain':
        return rpcError(id, -32005, `query returned more than ${cap} results`)
      default:
        return rpcError(id, -32005, `query returned more than ${cap} results. Try with this block range [${hex(from)}, ${hex(suggestedTo)}].`, { from: hex(from), to: hex(suggestedTo), limit: cap })
    }
  }

  /** Block numbers of a filter, resolved against the head when they are tags. */
  async function blockOf(tag: unknown, head: () => Promise<number>): Promise<number> {
    if (typeof tag === 'string' && /^0x[0-9a-f]+$/i.test(tag)) return Number(tag)
    if (tag === 'earliest') return 0
    return head()
  }

  /** One call answered as the provider would: refused, capped, or forwarded. */
  async function answer(call: Call): Promise<unknown> {
    if (typeof call.method === 'string' && behaviour.refuseMethods?.includes(call.method)) {
      return rpcError(call.id, -32601, `the method ${call.method} does not exist/is not available`)
    }
    if (call.method === 'eth_getLogs' && (behaviour.maxLogsRange || behaviour.maxLogsResults)) {
      const filter = (call.params?.[0] ?? {}) as { fromBlock?: string; toBlock?: string; blockHash?: string }
      if (!filter.blockHash) {
        let headCache: number | undefined
        const head = async () => (headCache ??= Number((await forward({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] })).result))
        const from = await blockOf(filter.fromBlock ?? 'latest', head)
        const to = await blockOf(filter.toBlock ?? 'latest', head)
        if (behaviour.maxLogsRange && to - from + 1 > behaviour.maxLogsRange) return rangeRefusal(call.id, from, to, behaviour.maxLogsRange)
        const answered = await forward(call)
        const logs = answered.result as Array<{ blockNumber: string }> | undefined
        const cap = behaviour.maxLogsResults
        if (cap && Array.isArray(logs) && logs.length > cap) {
          // Suggest the longest range from `from` whose logs fit (the block of the cap-th log ends before it).
          const lastFitting = Number(logs[cap]!.blockNumber) - 1
          return resultRefusal(call.id, from, Math.max(from, lastFitting), cap)
        }
        return answered
      }
    }
    return forward(call)
  }

  const server = http.createServer(async (req, res) => {
    if (req.method !== 'POST') return res.writeHead(405, { 'content-type': 'text/plain' }).end('JSON-RPC: POST only')
    requests++
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    let body: Call | Call[]
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'))
    } catch {
      return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(rpcError(null, -32700, 'Parse error')))
    }
    for (const call of [body].flat()) record(call, 'http')
    if (behaviour.down) return res.writeHead(503, { 'content-type': 'text/plain' }).end('upstream down')
    const queued = scripted.shift()
    const admitted = queued === '429' ? { ok: false as const, retryAfterSeconds: 1 } : admit()
    if (!admitted.ok) {
      faults.rateLimited++
      const first = [body].flat()[0]
      return res
        .writeHead(429, { 'content-type': 'application/json', 'retry-after': String(admitted.retryAfterSeconds) })
        .end(JSON.stringify(rpcError(first?.id, -32005, 'Too many requests: rate limit exceeded')))
    }
    const roll = queued === 'timeout' ? -1 : queued === '5xx' ? (behaviour.timeoutRate ?? 0) : queued ? 1 : draw()
    if (roll < 0 || (behaviour.timeoutRate && roll < behaviour.timeoutRate)) {
      // Held open until the client gives up (or the proxy closes).
      faults.timeouts++
      hanging.add(res)
      res.on('close', () => hanging.delete(res))
      return
    }
    if (queued === '5xx' || (behaviour.serverErrorRate && roll < (behaviour.timeoutRate ?? 0) + behaviour.serverErrorRate)) {
      faults.serverErrors++
      const status = draw() < 0.5 ? 502 : 503
      return res.writeHead(status, { 'content-type': 'text/html' }).end(`<html><body><h1>${status} ${status === 502 ? 'Bad Gateway' : 'Service Unavailable'}</h1></body></html>`)
    }
    try {
      const result = Array.isArray(body) ? await Promise.all(body.map(answer)) : await answer(body)
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result))
    } catch (error) {
      res.writeHead(502, { 'content-type': 'text/plain' }).end(`upstream failed: ${(error as Error).message}`)
    }
  })

  const wss = new WebSocketServer({ noServer: true })
  const upstreamWs = target.replace(/^http/, 'ws')
  wss.on('connection', (client: WebSocket) => {
    sockets.add(client)
    const upstream = new WebSocket(upstreamWs)
    const pending: RawData[] = []
    let idle: NodeJS.Timeout | undefined
    const armIdle = () => {
      clearTimeout(idle)
      const ms = behaviour.wsIdleMs ?? 30_000
      if (ms > 0) {
        idle = setTimeout(() => {
          faults.wsDrops++
          client.terminate()
        }, ms)
      }
    }
    armIdle()
    upstream.on('open', () => {
      for (const message of pending.splice(0)) upstream.send(message)
    })
    upstream.on('message', (data: RawData) => {
      if (client.readyState === WebSocket.OPEN) client.send(data.toString())
    })
    upstream.on('close', () => client.terminate())
    upstream.on('error', () => client.terminate())
    client.on('message', (data: RawData) => {
      wsMessages++
      armIdle()
      let parsed: Call | Call[] | undefined
      try {
        parsed = JSON.parse(data.toString())
      } catch {
        // forwarded as is: the upstream answers the parse error
      }
      for (const call of parsed ? [parsed].flat() : []) record(call, 'ws')
      const single = parsed && !Array.isArray(parsed) ? parsed : undefined
      if (single && behaviour.requestsPerSecond && !admit().ok) {
        faults.rateLimited++
        client.send(JSON.stringify(rpcError(single.id, -32005, 'Too many requests: rate limit exceeded')))
        return
      }
      if (upstream.readyState === WebSocket.OPEN) upstream.send(data.toString())
      else pending.push(data)
    })
    client.on('close', () => {
      clearTimeout(idle)
      sockets.delete(client)
      upstream.terminate()
    })
    client.on('error', () => client.terminate())
  })
  server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req))
  })

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  return {
    url: `http://127.0.0.1:${port}`,
    wsUrl: `ws://127.0.0.1:${port}`,
    requests: () => requests,
    wsMessages: () => wsMessages,
    countsByMethod: () => ({ ...counts }),
    calls: () => calls,
    faults: () => ({ ...faults }),
    set(next) {
      if (next.seed !== undefined && next.seed !== behaviour.seed) draw = random(next.seed)
      Object.assign(behaviour, next)
    },
    queue(faults) {
      scripted.push(...faults)
    },
    dropWebSockets() {
      const open = [...sockets]
      for (const socket of open) socket.terminate()
      faults.wsDrops += open.length
      return open.length
    },
    async close() {
      for (const socket of sockets) socket.terminate()
      for (const res of hanging) res.destroy()
      wss.close()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
