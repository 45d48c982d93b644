import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { fileURLToPath } from 'node:url'
import type { DevnetInfo } from '../src/devnet/start-devnet.ts'

export type DevnetProcess = {
  url: string
  info: DevnetInfo
  /** CPU time the devnet process has used so far, in ms (Linux; undefined elsewhere). */
  cpuMs(): number | undefined
  close(): Promise<void>
}

const entry = fileURLToPath(new URL('../src/devnet/main.ts', import.meta.url))

/**
 * The devnet in a process of its own, as `npm start` runs it (and as a real chain is: another
 * machine), so a benchmark of the service does not count the chain's CPU as the service's.
 */
export async function startDevnetProcess(): Promise<DevnetProcess> {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, DEVNET_RPC_PORT: String(port), HOST: '127.0.0.1' },
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const deadline = Date.now() + 120_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the devnet exited with ${child.exitCode} before answering`)
    const info = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'devnet_info', params: [] }),
    })
      .then(async (response) => ((await response.json()) as { result?: DevnetInfo }).result)
      .catch(() => undefined)
    if (info) {
      return {
        url,
        info,
        cpuMs: () => processCpuMs(child.pid!),
        async close() {
          if (child.exitCode === null) child.kill('SIGTERM')
          await exited
        },
      }
    }
    if (Date.now() > deadline) {
      child.kill('SIGTERM')
      throw new Error('the devnet did not answer within 120 s')
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

/** CPU time of this process's main thread (the event loop) so far, in ms (Linux). */
export const mainThreadCpuMs = () => processCpuMs(process.pid, `/proc/self/task/${process.pid}/stat`)

/** utime + stime of a process (or of one of its threads) from /proc, in ms. */
function processCpuMs(pid: number, file = `/proc/${pid}/stat`): number | undefined {
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const stat = readFileSync(file, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS
  } catch {
    return undefined
  }
}

/** USER_HZ: 100 on every Linux this runs on. */
const CLOCK_TICKS = 100
