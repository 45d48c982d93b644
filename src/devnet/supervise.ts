/**
 * The embedded devnet as `npm start` runs it: a process of its own, found again or started,
 * recorded in DATA_DIR, and stopped on Ctrl-C. main.ts only calls these.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Logger } from 'pino'
import type { Config } from '../config/load.ts'

/** The devnet this process spawned while it is still booting (Ctrl-C then stops it too). */
let bootingDevnet: ChildProcess | undefined

/** What `devnet_info` answers, as far as this file cares. */
type DevnetHandle = { bootId: string }

/**
 * Whether the JSON-RPC endpoint at rpcUrl is the embedded devnet (it answers `devnet_info`
 * with its boot ID), another chain, or not answering.
 */
export async function probeRpc(rpcUrl: string, timeoutMs: number): Promise<{ kind: 'devnet'; bootId: string } | { kind: 'other' | 'down' }> {
  try {
    const response = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'devnet_info', params: [] }),
      signal: AbortSignal.timeout(timeoutMs),
    })
    const body = (await response.json().catch(() => undefined)) as { result?: { bootId?: unknown }; error?: unknown } | undefined
    if (typeof body?.result?.bootId === 'string') return { kind: 'devnet', bootId: body.result.bootId }
    return { kind: body?.error || response.ok || response.status < 500 ? 'other' : 'down' }
  } catch {
    return { kind: 'down' }
  }
}

/** The devnet answering at rpcUrl, or undefined when nothing (or something else) answers. */
async function devnetInfo(rpcUrl: string): Promise<DevnetHandle | undefined> {
  const probe = await probeRpc(rpcUrl, 1_000)
  return probe.kind === 'devnet' ? { bootId: probe.bootId } : undefined
}

/** Waits until the devnet answers devnet_info, or gives up. */
async function waitForDevnet(rpcUrl: string, timeoutMs: number, alive: () => boolean = () => true): Promise<DevnetHandle | undefined> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const info = await devnetInfo(rpcUrl)
    if (info || Date.now() >= deadline || !alive()) return info
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/**
 * The devnet `npm start` started, recorded in DATA_DIR so that a later `npm start` (which
 * reuses the running devnet) can still stop it on Ctrl-C. The boot ID guards against a stale
 * file: the PID is only signalled while the devnet it names is the one answering on the port.
 */
type DevnetRecord = { pid: number; port: number; bootId: string }

function devnetRecordPath(config: Config): string {
  return path.join(config.DATA_DIR, 'devnet.json')
}

function readDevnetRecord(config: Config): DevnetRecord | undefined {
  try {
    const record = JSON.parse(readFileSync(devnetRecordPath(config), 'utf8')) as Partial<DevnetRecord>
    if (typeof record.pid === 'number' && typeof record.port === 'number' && typeof record.bootId === 'string') {
      return record as DevnetRecord
    }
  } catch {
    // no record
  }
  return undefined
}

export type DevnetStart = { rpcUrl: string; started: boolean; log: string; ready: Promise<void> }

/**
 * Embedded mode runs the devnet in a process of its own (its own process group, detached),
 * so the service can be stopped and restarted while the chain keeps its state; a running
 * devnet is reused. Its output goes to DATA_DIR/devnet.log. Resolves once the devnet is
 * spawned (or found running); `ready` resolves when it answers, so the service's modules load
 * on the other core meanwhile.
 */
export async function startDevnetProcess(config: Config, log: Logger): Promise<DevnetStart> {
  const rpcUrl = `http://127.0.0.1:${config.DEVNET_RPC_PORT}`
  const logFile = path.join(config.DATA_DIR, 'devnet.log')
  const running = await devnetInfo(rpcUrl)
  if (running) {
    log.info({ rpc: rpcUrl }, `reusing the devnet already running at ${rpcUrl} (its chain state is kept)`)
    return { rpcUrl, started: false, log: logFile, ready: Promise.resolve() }
  }
  const started = Date.now()
  log.info({ rpc: rpcUrl, log: logFile }, `starting the embedded devnet (chain 4326): deploying and seeding the contracts; its output goes to ${logFile}`)
  mkdirSync(config.DATA_DIR, { recursive: true })
  // Compiled (dist/main.js, `npm run build`) the devnet is started from dist/devnet/main.js
  // without the TypeScript loader; from source (npm start) through tsx.
  const compiled = import.meta.url.endsWith('.js')
  const entry = fileURLToPath(new URL(compiled ? './main.js' : './main.ts', import.meta.url))
  const out = openSync(logFile, 'a')
  const child = spawn(process.execPath, compiled ? [entry] : ['--import', 'tsx', entry], {
    detached: true,
    stdio: ['ignore', out, out],
    env: { ...process.env, DEVNET_RPC_PORT: String(config.DEVNET_RPC_PORT) },
  })
  closeSync(out)
  child.unref()
  bootingDevnet = child
  const ready = (async () => {
    const info = await waitForDevnet(rpcUrl, 120_000, () => child.exitCode === null && child.signalCode === null)
    bootingDevnet = undefined
    if (!info) {
      if (child.exitCode === null) child.kill('SIGTERM')
      throw new Error(`The devnet did not come up on ${rpcUrl}; see ${logFile}.`)
    }
    const record: DevnetRecord = { pid: child.pid!, port: config.DEVNET_RPC_PORT, bootId: info.bootId }
    writeFileSync(devnetRecordPath(config), `${JSON.stringify(record)}\n`)
    log.info({ rpc: rpcUrl, ms: Date.now() - started }, `devnet up at ${rpcUrl} in ${Date.now() - started} ms`)
  })()
  // Awaited by main() after the service's modules are loaded; a failure before that is not unhandled.
  ready.catch(() => {})
  return { rpcUrl, started: true, log: logFile, ready }
}

/** Stops the devnet a `npm start` started (this one or an earlier one), if it still runs. */
export async function stopDevnet(config: Config): Promise<boolean> {
  const record = readDevnetRecord(config)
  if (!record || record.port !== config.DEVNET_RPC_PORT) return false
  const rpcUrl = `http://127.0.0.1:${record.port}`
  const answering = await devnetInfo(rpcUrl)
  if (answering?.bootId !== record.bootId) return false
  try {
    process.kill(record.pid, 'SIGTERM')
  } catch {
    return false
  }
  const deadline = Date.now() + 10_000
  while (Date.now() < deadline && (await devnetInfo(rpcUrl))) await new Promise((resolve) => setTimeout(resolve, 100))
  rmSync(devnetRecordPath(config), { force: true })
  return true
}

/** Before the service is up: Ctrl-C quits everything, SIGTERM leaves a booting devnet to finish. */
export function onSignalWhileStarting(signal: NodeJS.Signals) {
  if (signal === 'SIGINT') bootingDevnet?.kill('SIGTERM')
  process.exit(signal === 'SIGINT' ? 130 : 143)
}

