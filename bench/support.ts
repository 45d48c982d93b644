import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)

export type LoadResult = { url: string; requestsPerSec: number; p50Ms: number; p99Ms: number; non2xx: number; errors: number }

/**
 * Runs autocannon in a child process, so the load generator does not share the event loop
 * of the server it measures. Bounded in time and connections; loopback only.
 */
export async function runLoad(url: string, options: { connections?: number; seconds?: number } = {}): Promise<LoadResult> {
  if (!new URL(url).hostname.startsWith('127.')) throw new Error('load runs only against 127.0.0.1')
  const bin = require.resolve('autocannon/autocannon.js')
  const args = [bin, '-j', '-c', String(options.connections ?? 100), '-d', String(options.seconds ?? 8), url]
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] })
    let text = ''
    child.stdout.on('data', (chunk) => (text += chunk))
    child.on('error', reject)
    child.on('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`autocannon exited ${code}`))))
  })
  const result = JSON.parse(output)
  return {
    url,
    requestsPerSec: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  }
}

export function table(rows: Array<Record<string, string | number>>): string {
  const keys = Object.keys(rows[0] ?? {})
  return [
    `| ${keys.join(' | ')} |`,
    `| ${keys.map(() => '---').join(' | ')} |`,
    ...rows.map((row) => `| ${keys.map((k) => row[k]).join(' | ')} |`),
  ].join('\n')
}

/**
 * Load on a bare Fastify route returning these bytes: what any route of that size can reach
 * on this machine now, the baseline every ratio is taken against. With `headers`, the route also
 * sends those (an informative second baseline: what the headers alone cost).
 */
export async function runBaseline(bytes: Buffer, seconds: number, headers?: Record<string, string>): Promise<LoadResult> {
  const { default: Fastify } = await import('fastify')
  const baseline = Fastify()
  baseline.get('/', async (_req, reply) => reply.headers(headers ?? {}).header('content-type', 'application/json; charset=utf-8').send(bytes))
  await baseline.listen({ host: '127.0.0.1', port: 0 })
  try {
    return await runLoad(`http://127.0.0.1:${(baseline.server.address() as { port: number }).port}/`, { seconds })
  } finally {
    await baseline.close()
  }
}

export const ratio = (result: LoadResult, base: LoadResult) => (result.requestsPerSec / base.requestsPerSec).toFixed(2)

/**
 * Posts `bodies` to `url` from a child process, all at once or one every `intervalMs`: each
 * answer with its time in ms, and the whole burst's.
 */
export async function postBurst(url: string, bodies: unknown[], intervalMs = 0): Promise<{ results: Array<{ status: number; ms: number; body: any }>; totalMs: number }> {
  if (!new URL(url).hostname.startsWith('127.')) throw new Error('bursts go only to 127.0.0.1')
  const entry = new URL('./burst-client.ts', import.meta.url).pathname
  const child = spawn(process.execPath, ['--import', 'tsx', entry], { stdio: ['pipe', 'pipe', 'inherit'] })
  let out = ''
  child.stdout.on('data', (chunk) => (out += chunk))
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve))
  child.stdin.end(JSON.stringify({ url, bodies, intervalMs }))
  const code = await exited
  if (code !== 0) throw new Error(`the burst client exited with ${code}`)
  return JSON.parse(out)
}

/** A V8 CPU profile of this process (BENCH_CPU_PROF=<file> in the benchmarks that take it). */
export async function startProfile(): Promise<{ stop(file: string): Promise<void> }> {
  const { Session } = await import('node:inspector/promises')
  const { writeFile } = await import('node:fs/promises')
  const session = new Session()
  session.connect()
  await session.post('Profiler.enable')
  await session.post('Profiler.setSamplingInterval', { interval: 100 })
  await session.post('Profiler.start')
  return {
    async stop(file) {
      const { profile } = await session.post('Profiler.stop')
      session.disconnect()
      await writeFile(file, JSON.stringify(profile))
    },
  }
}
