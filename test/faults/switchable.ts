import http from 'node:http'
import net from 'node:net'

/**
 * A local server a test can take away and bring back on the same port, as an upstream that
 * goes down: `down()` stops listening (new connections are refused, as on a closed port) and
 * cuts every open connection; `up()` listens again.
 */
export function switchable(server: net.Server) {
  const sockets = new Set<net.Socket>()
  server.on('connection', (socket: net.Socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  let port = 0
  let listening = false
  const listen = () => new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject)
      port = (server.address() as net.AddressInfo).port
      listening = true
      resolve()
    })
  })
  return {
    get port() {
      return port
    },
    get up() {
      return listening
    },
    start: listen,
    async down() {
      if (!listening) return
      listening = false
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      for (const socket of sockets) socket.destroy()
      await closed
    },
    async restore() {
      if (!listening) await listen()
    },
  }
}

export type Switch = ReturnType<typeof switchable>

/** An HTTP server behind a switch; the handler may take its own server down mid-request. */
export async function switchableHttp(handler: (req: http.IncomingMessage, body: Buffer, res: http.ServerResponse, self: Switch) => Promise<unknown>) {
  let self: Switch
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    await handler(req, Buffer.concat(chunks), res, self).catch(() => res.destroy())
  })
  self = switchable(server)
  await self.start()
  return Object.assign(self, { url: () => `http://127.0.0.1:${self.port}` })
}

/** A TCP pass-through to host:port behind a switch (Redis, or any protocol). */
export async function switchableTcp(target: { host: string; port: number }) {
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host)
    client.pipe(upstream).pipe(client)
    const end = () => {
      client.destroy()
      upstream.destroy()
    }
    client.on('error', end).on('close', end)
    upstream.on('error', end).on('close', end)
  })
  const self = switchable(server)
  await self.start()
  return self
}
