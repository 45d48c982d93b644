import http from 'node:http'

/**
 * A JSON-RPC node without `eth_sendRawTransactionSync`, as most are: a pass-through to `target`
 * that answers that method with "method not found" (-32601), alone or within a batch.
 */
export async function startNodeWithoutSyncSend(target: string) {
  let refused = 0
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id?: unknown; method?: string } | Array<{ id?: unknown; method?: string }>
    const calls = [body].flat()
    const answer = async (call: { id?: unknown; method?: string }) => {
      if (call.method === 'eth_sendRawTransactionSync') {
        refused++
        return { jsonrpc: '2.0', id: call.id ?? null, error: { code: -32601, message: 'the method eth_sendRawTransactionSync does not exist/is not available' } }
      }
      const upstream = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(call) })
      return upstream.json()
    }
    // Forwarded one by one: a batch's answers keep its order.
    const answers = await Promise.all(calls.map(answer))
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(Array.isArray(body) ? answers : answers[0]))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  return {
    url: `http://127.0.0.1:${port}`,
    /** Calls of `eth_sendRawTransactionSync` answered "method not found" so far. */
    refused: () => refused,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
