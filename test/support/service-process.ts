import { spawn, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'
import { fileURLToPath } from 'node:url'

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
    server.on('error', reject)
  })
}

const mainEntry = fileURLToPath(new URL('../../src/main.ts', import.meta.url))

/** The service as `npm start` runs it, in a process of its own that a test may kill. */
export async function startServiceProcess(env: Record<string, string>): Promise<{ url: string; child: ChildProcess; exited: Promise<number | null>; stop(): Promise<void> }> {
  const port = env.PORT ?? String(await freePort())
  const child = spawn(process.execPath, ['--import', 'tsx', mainEntry], {
    env: { ...process.env, LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn', ...env, PORT: port, HOST: '127.0.0.1' },
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 60_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode} before it was ready`)
    try {
      if ((await fetch(`${url}/api/bridge`)).ok) break
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('the service did not become ready in 60 s')
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  return {
    url,
    child,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM')
        await exited
      }
    },
  }
}
