import http from 'node:http'
import { callProvider, type JsonRpcError, type JsonRpcHandler } from './edr-provider.ts'

type JsonRpcRequest = { jsonrpc?: string; id?: unknown; method?: unknown; params?: unknown }
type JsonRpcResponse = { jsonrpc: '2.0'; id: unknown; result?: unknown; error?: JsonRpcError }

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
  options: { host: string; port: number; methods?: CustomMethods; observe?: (method: string, params: unknown[], answer: { error?: JsonRpcError }) => void },
) {
  const handleOne = async (request: JsonRpcRequest): Promise<JsonRpcResponse> => {
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
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, options.host, () => resolve())
  })
  const { port } = server.address() as { port: number }
  return {
    url: `http://${options.host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
