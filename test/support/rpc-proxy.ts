import http from 'node:http'

/**
 * A JSON-RPC pass-through in front of the devnet that counts requests and can be told to
 * fail, to test how the service behaves when its RPC misbehaves.
 */
export async function startRpcProxy(target: string) {
  let requests = 0
  let mode: 'pass' | 'fail' = 'pass'
  const server = http.createServer(async (req, res) => {
    requests++
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    if (mode === 'fail') {
      res.writeHead(503, { 'content-type': 'text/plain' }).end('upstream down')
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
    setMode(next: 'pass' | 'fail') {
      mode = next
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
