import http from 'node:http'
import type { Duplex } from 'node:stream'
import type { RawData, WebSocket, WebSocketServer } from 'ws'
import { callProvider, type JsonRpcError, type JsonRpcHandler } from './edr-provider.ts'

type JsonRpcRequest = { jsonrpc?: string; id?: unknown; method?: unknown; params?: unknown }
type JsonRpcResponse = { jsonrpc: '2.0'; id: unknown; result?: unknown; error?: JsonRpcError }

/** What the websocket endpoint needs of subscriptions (src/devnet/subscriptions.ts provides them). */
export type Subscriptions = {
  subscribe(params: unknown[], send: (result: unknown) => void): Promise<string>
  unsubscribe(id: string): boolean
  changed(method: string): void
}

export type CustomMethods = Record<string, (params: unknown[]) => Promise<unknown> | unknown>

/** Thrown by a custom method to answer with this JSON-RPC error (any other error answers -32603). */
export class JsonRpcFailure extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message)
  }
}

/** Largest accepted request body: deploying a contract is ~50 KB of hex. */
const MAX_BODY = 8 * 1024 * 1024

/**
 * Serves the provider as standard JSON-RPC over HTTP: single and batch requests (EDR itself
 * answers arrays without ids, so batches are split here), plus the devnet's own methods.
 */
export async function serveJsonRpc(
  provider: JsonRpcHandler,
  options: {
    host: string
    port: number
    methods?: CustomMethods
    observe?: (method: string, params: unknown[], answer: { error?: JsonRpcError }) => void
    /** eth_subscribe / eth_unsubscribe on the websocket endpoint; told after every answered request (the chain may have moved). */
    subscriptions?: Subscriptions
  },
) {
  const handleOne = async (request: JsonRpcRequest): Promise<JsonRpcResponse> => {
    try {
      return await answerOne(request)
    } finally {
      options.subscriptions?.changed(String(request.method))
    }
  }
  const answerOne = async (request: JsonRpcRequest): Promise<JsonRpcResponse> => {
    const id = request.id ?? null
    if (typeof request.method !== 'string') return { jsonrpc: '2.0', id, error: { code: -32600, message: 'Invalid request' } }
    const params = Array.isArray(request.params) ? request.params : []
    const custom = options.methods?.[request.method]
    if (custom) {
      try {
        return { jsonrpc: '2.0', id, result: await custom(params) }
      } catch (error) {
        if (error instanceof JsonRpcFailure) {
          return { jsonrpc: '2.0', id, error: { code: error.code, message: error.message, ...(error.data === undefined ? {} : { data: error.data }) } }
        }
        return { jsonrpc: '2.0', id, error: { code: -32603, message: (error as Error).message } }
      }
    }
    const { result, error } = await callProvider(provider, request.method, params)
    options.observe?.(request.method, params, { error })
    return error ? { jsonrpc: '2.0', id, error } : { jsonrpc: '2.0', id, result: result ?? null }
  }

  const server = http.createServer(async (req, res) => {
    res.setHeader('access-control-allow-origin', '*')
    res.setHeader('access-control-allow-headers', 'content-type')
    res.setHeader('access-control-allow-methods', 'POST, OPTIONS')
    if (req.method === 'OPTIONS') return res.writeHead(204).end()
    if (req.method !== 'POST') return res.writeHead(405, { 'content-type': 'text/plain' }).end('JSON-RPC: POST only')
    const chunks: Buffer[] = []
    let size = 0
    for await (const chunk of req) {
      size += (chunk as Buffer).length
      if (size > MAX_BODY) return res.writeHead(413).end()
      chunks.push(chunk as Buffer)
    }
    let body: unknown
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'))
    } catch {
      return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }))
    }
    const answer = Array.isArray(body)
      ? await Promise.all(body.map((r) => handleOne(r as JsonRpcRequest)))
      : await handleOne(body as JsonRpcRequest)
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer))
  })
  server.keepAliveTimeout = 65_000
  // The websocket endpoint (any path of the same port), as nodes serve one: every method, plus
  // subscriptions. `ws` is loaded by the first upgrade, not at boot (the devnet's boot is on npm start's path).
  let wss: WebSocketServer | undefined
  let loading: Promise<WebSocketServer> | undefined
  server.on('upgrade', async (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    loading ??= import('ws').then(({ WebSocketServer }) => {
      wss = new WebSocketServer({ noServer: true, maxPayload: MAX_BODY })
      wss.on('connection', (client: WebSocket) => serveSocket(client, handleOne, options.subscriptions))
      return wss
    })
    const ready = await loading
    ready.handleUpgrade(req, socket, head, (client) => ready.emit('connection', client, req))
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, options.host, () => resolve())
  })
  const { port } = server.address() as { port: number }
  return {
    url: `http://${options.host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of wss?.clients ?? []) client.terminate()
        wss?.close()
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** JSON-RPC over one websocket: requests as over HTTP, and subscriptions that end with the socket. */
function serveSocket(socket: WebSocket, handleOne: (request: JsonRpcRequest) => Promise<JsonRpcResponse>, subscriptions: Subscriptions | undefined) {
  const owned = new Set<string>()
  const send = (message: unknown) => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message))
  }
  const answer = async (request: JsonRpcRequest): Promise<JsonRpcResponse> => {
    const id = request.id ?? null
    const params = Array.isArray(request.params) ? request.params : []
    if (request.method === 'eth_subscribe' && subscriptions) {
      try {
        let subscription = ''
        subscription = await subscriptions.subscribe(params, (result) => send({ jsonrpc: '2.0', method: 'eth_subscription', params: { subscription, result } }))
        owned.add(subscription)
        return { jsonrpc: '2.0', id, result: subscription }
      } catch (error) {
        const failure = error instanceof JsonRpcFailure ? error : new JsonRpcFailure(-32603, (error as Error).message)
        return { jsonrpc: '2.0', id, error: { code: failure.code, message: failure.message } }
      }
    }
    if (request.method === 'eth_unsubscribe' && subscriptions) {
      const subscription = String(params[0])
      owned.delete(subscription)
      return { jsonrpc: '2.0', id, result: subscriptions.unsubscribe(subscription) }
    }
    return handleOne(request)
  }
  socket.on('message', async (data: RawData) => {
    let body: unknown
    try {
      body = JSON.parse(data.toString())
    } catch {
      return send({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } })
    }
    send(Array.isArray(body) ? await Promise.all(body.map((r) => answer(r as JsonRpcRequest))) : await answer(body as JsonRpcRequest))
  })
  socket.on('close', () => {
    for (const subscription of owned) subscriptions?.unsubscribe(subscription)
  })
  socket.on('error', () => socket.terminate())
}
