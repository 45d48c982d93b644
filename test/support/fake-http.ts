import http from 'node:http'

export type Recorded = { method: string; url: string; headers: http.IncomingHttpHeaders; body: Buffer }

/**
 * A local HTTP server that speaks a third-party API for a test: it records every request and
 * answers through the handler the test gives it.
 */
export async function startFakeApi(handler: (request: Recorded, base: string) => Promise<{ status: number; body?: unknown; raw?: Buffer; type?: string }>) {
  const requests: Recorded[] = []
  let base = ''
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const recorded = { method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks) }
    requests.push(recorded)
    const answer = await handler(recorded, base)
    if (answer.raw) return res.writeHead(answer.status, { 'content-type': answer.type ?? 'application/octet-stream' }).end(answer.raw)
    res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body === undefined ? '' : JSON.stringify(answer.body))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`
  return { url: base, requests, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

/** Parses a recorded multipart body the way a server would. */
export async function formDataOf(request: Recorded): Promise<FormData> {
  return new Response(request.body, { headers: { 'content-type': String(request.headers['content-type']) } }).formData()
}
