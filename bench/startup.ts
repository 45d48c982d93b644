/**
 * Start-up time of `npm start`: from spawning the command until GET /readyz answers 200, polled
 * every 50 ms, each run bounded to 60 s. Cold runs get a new DATA_DIR and no devnet running (the
 * devnet a run started is stopped after it); warm runs reuse one DATA_DIR and the devnet the
 * previous start left running, as a second `npm start` does.
 *
 *   node --import tsx bench/startup.ts [--runs 3] [--command "npm start"] [--log]
 *
 * `npm run bench` (and `npm run bench -- startup`) runs it too and writes its Summary row. The
 * baseline, in the same run: a bare Node process starting Fastify and answering /readyz (the
 * floor of any Node HTTP service on this machine now), timed the same way.
 *
 * PORT and DEVNET_RPC_PORT default to 3913 and 18913 (not the service's defaults, so it does not
 * collide with another checkout on the machine). --log prints each log line of the service with
 * its time since spawn (where the time goes).
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { createInterface } from 'node:readline'
import { procStat } from './proc-stat.ts'
import { table } from './support.ts'
import { runDate, yesNo, type BenchResult } from './summary.ts'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback
}
const RUNS = Number(arg('runs', '3'))
const COMMAND = arg('command', 'npm start')
/** Ready within 5 s on a 2-core machine (issue 4). */
const TARGET_MS = 5_000
/** The baseline: a Node process starting Fastify and answering /readyz, nothing else. */
const BARE_SCRIPT = `const { default: Fastify } = await import(${JSON.stringify(pathToFileURL(path.join(root, 'node_modules/fastify/fastify.js')).href)})
const app = Fastify()
app.get('/readyz', async () => ({ ok: true }))
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) })`
const BARE = [process.execPath, '--input-type=module', '-e', BARE_SCRIPT]
const PORT = Number(process.env.PORT ?? 3913)
const DEVNET_RPC_PORT = Number(process.env.DEVNET_RPC_PORT ?? 18913)
const SHOW_LOG = process.argv.includes('--log')
const LIMIT_MS = 60_000

type Run = { ms: number; readyMs?: number; cpuMs?: number; load: string; lines: string[] }

const load = () => loadavg().map((l) => l.toFixed(2)).join(' ')

/**
 * CPU time (user + system) used so far by the processes of a process group (npm and the
 * service; the devnet has a group of its own), from /proc: the figure other work on a shared
 * machine does not inflate the way it inflates wall time. Undefined off Linux.
 */
function groupCpuMs(pgid: number): number | undefined {
  try {
    let ms = 0
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue
      const stat = procStat(`/proc/${entry}/stat`) // undefined: gone meanwhile
      if (stat?.pgid === pgid) ms += stat.cpuMs
    }
    return ms
  } catch {
    return undefined
  }
}

async function readyz(): Promise<boolean> {
  try {
    const response = await fetch(`http://127.0.0.1:${PORT}/readyz`, { signal: AbortSignal.timeout(1_000) })
    await response.arrayBuffer()
    return response.status === 200
  } catch {
    return false
  }
}

/** Whether anything still answers HTTP on PORT (any status). */
async function portAnswers(): Promise<boolean> {
  try {
    const response = await fetch(`http://127.0.0.1:${PORT}/healthz`, { signal: AbortSignal.timeout(1_000) })
    await response.arrayBuffer()
    return true
  } catch {
    return false
  }
}

async function rpcAnswers(): Promise<boolean> {
  try {
    const response = await fetch(`http://127.0.0.1:${DEVNET_RPC_PORT}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      signal: AbortSignal.timeout(1_000),
    })
    return response.ok
  } catch {
    return false
  }
}

/** Stops the devnet a start left running (its PID is in DATA_DIR/devnet.json) and waits for the port to close. */
async function stopDevnet(dataDir: string): Promise<void> {
  try {
    const { pid } = JSON.parse(readFileSync(path.join(dataDir, 'devnet.json'), 'utf8')) as { pid: number }
    process.kill(-pid, 'SIGTERM')
  } catch {
    // none recorded, or gone
  }
  const deadline = Date.now() + 15_000
  while (Date.now() < deadline && (await rpcAnswers())) await new Promise((r) => setTimeout(r, 100))
}

async function startOnce(dataDir: string, argv = COMMAND.split(' ')): Promise<Run> {
  const loadBefore = load()
  const spawnedAt = performance.now()
  const [command, ...args] = argv
  const child = spawn(command!, args, {
    cwd: root,
    detached: true, // its own process group: npm and node are stopped together
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PORT: String(PORT), DEVNET_RPC_PORT: String(DEVNET_RPC_PORT), DATA_DIR: dataDir, LOG_LEVEL: 'info' },
  })
  const lines: string[] = []
  let readyMs: number | undefined
  const collect = (line: string) => {
    const at = Math.round(performance.now() - spawnedAt)
    try {
      const entry = JSON.parse(line) as { msg?: string; readyMs?: number }
      if (typeof entry.readyMs === 'number') readyMs = entry.readyMs
      lines.push(`${String(at).padStart(6)} ms  ${entry.msg ?? line}`)
    } catch {
      lines.push(`${String(at).padStart(6)} ms  ${line}`)
    }
  }
  createInterface({ input: child.stdout! }).on('line', collect)
  createInterface({ input: child.stderr! }).on('line', collect)
  let exited = false
  child.on('exit', () => (exited = true))
  let ms: number | undefined
  let cpuMs: number | undefined
  while (!exited && performance.now() - spawnedAt < LIMIT_MS) {
    if (await readyz()) {
      ms = Math.round(performance.now() - spawnedAt)
      cpuMs = groupCpuMs(child.pid!)
      break
    }
    await new Promise((r) => setTimeout(r, 50))
  }
  try {
    process.kill(-child.pid!, 'SIGTERM') // SIGTERM: the service stops, the devnet keeps running
  } catch {
    // already gone
  }
  await new Promise<void>((resolve) => (exited ? resolve() : child.on('exit', () => resolve())))
  // npm exits before the service has finished stopping: the next start must not find this one
  // still answering on the port (a loaded machine made a warm start look 0.19 s long).
  for (const deadline = Date.now() + 30_000; Date.now() < deadline && (await portAnswers()); ) await new Promise((r) => setTimeout(r, 50))
  if (ms === undefined) throw new Error(`not ready within ${LIMIT_MS} ms (or exited):\n${lines.join('\n')}`)
  return { ms, readyMs, cpuMs, load: loadBefore, lines }
}

function report(kind: string, runs: Run[]) {
  const sorted = runs.map((r) => r.ms).sort((a, b) => a - b)
  for (const [i, run] of runs.entries()) {
    console.log(`${kind} ${i + 1}: ready in ${run.ms} ms (service's own readyMs ${run.readyMs ?? '?'}; CPU of npm + service ${run.cpuMs ?? '?'} ms), load average before: ${run.load}`)
    if (SHOW_LOG) console.log(run.lines.map((l) => `    ${l}`).join('\n'))
  }
  const cpu = runs.map((r) => r.cpuMs ?? 0).sort((a, b) => a - b)
  console.log(`${kind}: min ${sorted[0]} ms, median ${sorted[Math.floor(sorted.length / 2)]} ms, max ${sorted.at(-1)} ms; CPU median ${cpu[Math.floor(cpu.length / 2)]} ms (${COMMAND})`)
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

/** Cold and warm starts of COMMAND, RUNS each, and as many starts of the bare baseline. */
export async function benchStartup(): Promise<BenchResult> {
  if (await rpcAnswers()) throw new Error(`something already answers on ${DEVNET_RPC_PORT}: pick another DEVNET_RPC_PORT`)
  const bare: Run[] = []
  const scratch = mkdtempSync(path.join(tmpdir(), 'startup-bare-'))
  for (let i = 0; i < RUNS; i++) bare.push(await startOnce(scratch, BARE))
  rmSync(scratch, { recursive: true, force: true })
  report('bare Fastify', bare)
  const cold: Run[] = []
  let dataDir = ''
  for (let i = 0; i < RUNS; i++) {
    if (dataDir) {
      await stopDevnet(dataDir)
      rmSync(dataDir, { recursive: true, force: true })
    }
    dataDir = mkdtempSync(path.join(tmpdir(), 'startup-bench-'))
    cold.push(await startOnce(dataDir))
  }
  report('cold', cold)
  // Warm: the last cold run's DATA_DIR and its devnet, still running.
  const warm: Run[] = []
  for (let i = 0; i < RUNS; i++) warm.push(await startOnce(dataDir))
  report('warm', warm)
  await stopDevnet(dataDir)
  rmSync(dataDir, { recursive: true, force: true })

  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`
  const wall = (runs: Run[]) => median(runs.map((r) => r.ms))
  const cpu = (runs: Run[]) => median(runs.map((r) => r.cpuMs ?? 0))
  const headline = {
    name: 'start-up',
    figure: `\`${COMMAND}\` to \`/readyz\` 200, median of ${RUNS}: cold ${s(wall(cold))}, warm ${s(wall(warm))} (CPU ${s(cpu(cold))} / ${s(cpu(warm))})`,
    baseline: `bare Node + Fastify answering /readyz: ${s(wall(bare))} (CPU ${s(cpu(bare))})`,
    ratio: `${(wall(cold) / wall(bare)).toFixed(1)} / ${(wall(warm) / wall(bare)).toFixed(1)} of the bare start`,
    target: `ready ≤ ${TARGET_MS / 1000} s on 2 cores`,
    met: `cold ${yesNo(wall(cold) <= TARGET_MS)}, warm ${yesNo(wall(warm) <= TARGET_MS)}`,
    date: runDate(),
  }
  const rows = [
    { start: 'bare Node + Fastify', runs: bare.map((r) => s(r.ms)).join(', '), 'median wall': s(wall(bare)), 'CPU (median)': s(cpu(bare)) },
    { start: 'cold', runs: cold.map((r) => s(r.ms)).join(', '), 'median wall': s(wall(cold)), 'CPU (median)': s(cpu(cold)) },
    { start: 'warm', runs: warm.map((r) => s(r.ms)).join(', '), 'median wall': s(wall(warm)), 'CPU (median)': s(cpu(warm)) },
  ]
  return { section: table(rows), headlines: [headline] }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log((await benchStartup()).section)
  process.exit(0)
}
