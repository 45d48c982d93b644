import http from 'node:http'

/**
 * A JSON-RPC pass-through in front of the devnet that counts requests and can be told to
 * fail, to test how the service behaves when its RPC misbehaves.
 */
export async function startRpcProxy(target: string, options: { maxLogsRange?: number; refuseMethods?: string[] } = {}) {
  let requests = 0
  let mode: 'pass' | 'fail' = 'pass'
  const calls: Array<{ method: string; params: any[] }> = []
  const server = http.createServer(async (req, res) => {
    requests++
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    if (mode === 'fail') {
      res.writeHead(503, { 'content-type': 'text/plain' }).end('upstream down')
      return
    }
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8'))
    for (const call of [body].flat()) calls.push({ method: call.method, params: call.params ?? [] })
    // Like hosted providers, refuse eth_getLogs over too many blocks.
    const single = Array.isArray(body) ? undefined : body
    if (options.maxLogsRange && single?.method === 'eth_getLogs') {
      const { fromBlock, toBlock } = single.params[0]
      if (Number(toBlock) - Number(fromBlock) + 1 > options.maxLogsRange) {
        const error = { code: -32600, message: `block range too large: at most ${options.maxLogsRange} blocks` }
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: single.id, error }))
        return
      }
    }
    // Like a node that lacks a method (geth's words and code).
    if (single && options.refuseMethods?.includes(single.method)) {
      const error = { code: -32601, message: `the method ${single.method} does not exist/is not available` }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: single.id, error }))
      return
    }
    const upstream = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.concat(chunks) })
    res.writeHead(upstream.status, { 'content-type': 'application/json' }).end(Buffer.from(await upstream.arrayBuffer()))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => requests,
    /** Every JSON-RPC call forwarded so far, batches flattened. */
    calls: () => calls,
    setMode(next: 'pass' | 'fail') {
      mode = next
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
