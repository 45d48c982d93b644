import { after, before } from 'node:test'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { startDevnet, type Devnet } from '../../src/devnet/start-devnet.ts'
import { loadConfig } from '../../src/config/load.ts'
import { createApp, type App, type CreateAppOptions } from '../../src/app.ts'
import { testBackend } from './postgres.ts'
export { pooledPglite }
import { rpcClient } from './rpc.ts'
import { createThreadedStylizer } from '../../src/adapters/image/threaded-stylizer.ts'
import type { ImageGenerator } from '../../src/adapters/image/port.ts'
import { pooledPglite } from './pglite-pool.ts'

/**
 * The test harness: one devnet per test process, reset to its deployed state for each file
 * (and, on request, each test) by `evm_snapshot`/`evm_revert`, and the service built with
 * `createApp` and driven through Fastify's `inject`. See test/support/README.md.
 */

let shared: Promise<Devnet> | undefined
let users = 0
/** The snapshot of the freshly deployed chain; `evm_revert` consumes it, so it is retaken. */
let deployed: string | undefined

async function acquireDevnet(): Promise<Devnet> {
  users++
  if (!shared) {
    shared = startDevnet({ host: '127.0.0.1', port: 0 })
    const devnet = await shared
    deployed = await rpcClient(devnet.url)<string>('evm_snapshot')
    return devnet
  }
  const devnet = await shared
  await resetChain(devnet)
  return devnet
}

async function releaseDevnet(): Promise<void> {
  // In a test process shared by several files (scripts/test/group.ts) the devnet outlives each
  // file: the next one reverts it to the deployed state instead of booting another.
  if (--users > 0 || !shared || process.env.B2C_TEST_SHARED_PROCESS) return
  const devnet = await shared
  shared = undefined
  deployed = undefined
  await devnet.close()
}

/** Puts the chain back to its deployed state (every account, contract, block and clock). */
async function resetChain(devnet: Devnet): Promise<void> {
  const rpc = rpcClient(devnet.url)
  if (deployed === undefined) throw new Error('no deployed-state snapshot to revert to')
  const reverted = await rpc<boolean>('evm_revert', [deployed])
  if (reverted !== true) throw new Error(`evm_revert(${deployed}) answered ${reverted}`)
  deployed = await rpc<string>('evm_snapshot')
}

export type TestDevnet = Devnet & {
  /** JSON-RPC on the devnet; an error answer throws (JsonRpcError with its code). */
  rpc: ReturnType<typeof rpcClient>
  /** Back to the deployed state; only for files without a service attached (its indexer would see blocks vanish). */
  reset(): Promise<void>
}

/**
 * The process's devnet for this file: booted on first use, reverted to the deployed state
 * when a file before this one in the same process used it, closed after the last file.
 */
export function useDevnet(): TestDevnet {
  const fixture = {} as TestDevnet
  before(async () => {
    Object.assign(fixture, await testDevnet())
  })
  after(releaseDevnet)
  return fixture
}

/** The process's devnet, acquired without hooks (call `releaseDevnet` when done). */
export async function testDevnet(): Promise<TestDevnet> {
  const devnet = await acquireDevnet()
  return Object.assign(Object.create(null), devnet, { rpc: rpcClient(devnet.url), reset: () => resetChain(devnet) })
}
export { releaseDevnet }

/**
 * The configuration of a service under test: 127.0.0.1 on a free port, quiet logs, rate limits
 * off (functional tests send far more writes per wallet than a person would; the limits have
 * their own tests, test/ops/abuse.test.ts, which set them), then `env` (DATA_DIR and RPC_URL at least).
 */
export function testConfig(env: Record<string, string>) {
  return loadConfig({
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    RATE_LIMIT_WRITES_PER_MINUTE: '0',
    RATE_LIMIT_WALLET_WRITES_PER_MINUTE: '0',
    RATE_LIMIT_EXPENSIVE_PER_MINUTE: '0',
    RATE_LIMIT_WALLET_EXPENSIVE_PER_MINUTE: '0',
    // A failing RPC is tried again after 20, 40, 80… ms, not 250, 500…: tests of faults stay short.
    RPC_RETRY_BASE_MS: '20',
    ...env,
  })
}

let stylizer: ImageGenerator | undefined

/**
 * The local stylizer (the real one: face landmarks and pixel work in a worker thread) shared
 * by every app of the test process. Its thread loads the face model on first use, about 1.2 s
 * of CPU; one per app paid that in every file that mints. Apps close it; the shared one stays
 * (an idle stylizer thread does not keep the process alive).
 */
function sharedStylizer(config: { IMAGE_PROVIDER?: string }): ImageGenerator | undefined {
  if (config.IMAGE_PROVIDER && config.IMAGE_PROVIDER !== 'local') return undefined
  // One thread: the suite's processes already share the cores; a second thread would load the model again.
  stylizer ??= createThreadedStylizer({ threads: 1 })
  const { name, generate } = stylizer
  return { name, generate, async close() {} }
}

/** What createApp is handed besides the configuration: the shared stylizer and a pooled PGlite. */
export function testAppOptions(config: { IMAGE_PROVIDER?: string; DATABASE_URL?: string }, images?: ImageGenerator, embedded: 'pooled' | 'thread' = 'pooled') {
  return { images: images ?? sharedStylizer(config), ...(config.DATABASE_URL || embedded === 'thread' ? {} : { db: pooledPglite() }) }
}

export type InjectResponse = { status: number; body: any; headers: Headers; text: string }

export type TestApp = App & {
  /** The base URL it listens on (127.0.0.1, a free port): for the socket tests and the links in answers. */
  url: string
  devnet: TestDevnet
  request(method: string, path: string, options?: { body?: unknown; headers?: Record<string, string>; payload?: string | Buffer }): Promise<InjectResponse>
  get(path: string, headers?: Record<string, string>): Promise<InjectResponse>
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<InjectResponse>
}

export type AppOptions = {
  database?: 'pglite' | 'postgres'
  env?: Record<string, string>
  images?: CreateAppOptions['images']
  /** An RPC in front of the devnet (a proxy that counts or fails calls); the devnet's own by default. */
  rpcUrl?: (devnet: TestDevnet) => string
  /**
   * With PGlite: `thread` opens the service's own database in DATA_DIR on its thread, as `npm
   * start` does (the performance guards measure that); by default an in-process one from the pool.
   */
  embeddedDatabase?: 'pooled' | 'thread'
  /** The service's logger (a test that reads what start-up logs); quiet by default. */
  log?: CreateAppOptions['log']
}

/**
 * Builds the service against `devnet` as `npm start` would (createApp, then listen, which
 * starts the worker, the indexer and the senders) on a database of its own: a copy of the
 * migrated PGlite template in a temporary directory, or a fresh PostgreSQL database.
 */
export async function buildApp(devnet: TestDevnet, options: AppOptions = {}): Promise<TestApp & { stop(): Promise<void> }> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'b2c-test-'))
  // PGlite, or with TEST_BACKEND=postgres (the second leg of .ci/run) PostgreSQL and Redis.
  const backend = await testBackend(options.database)
  const config = testConfig({ DATA_DIR: dataDir, RPC_URL: options.rpcUrl?.(devnet) ?? devnet.url, ...backend.env, ...options.env })
  const app = await createApp(config, { ...testAppOptions(config, options.images, options.embeddedDatabase), ...(options.log ? { log: options.log } : {}) })
  const url = await app.listen()
  async function request(method: string, urlPath: string, init: { body?: unknown; headers?: Record<string, string>; payload?: string | Buffer } = {}): Promise<InjectResponse> {
    const json = init.body !== undefined
    const response = await app.http.inject({
      method: method as 'GET',
      url: urlPath,
      headers: { ...(json ? { 'content-type': 'application/json' } : {}), ...init.headers },
      payload: json ? JSON.stringify(init.body) : init.payload,
    })
    const headers = new Headers()
    for (const [name, value] of Object.entries(response.headers)) if (value !== undefined) headers.set(name, String(value))
    const text = response.body
    let body: any
    try {
      body = text ? JSON.parse(text) : undefined
    } catch {
      body = undefined
    }
    return { status: response.statusCode, body, headers, text }
  }
  return {
    ...app,
    url,
    devnet,
    request,
    get: (urlPath, headers) => request('GET', urlPath, { headers }),
    post: (urlPath, body, headers) => request('POST', urlPath, { body, headers }),
    async stop() {
      await app.close()
      await backend.drop()
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}

/**
 * The usual fixture of a test file: the process's devnet and the service in front of it,
 * built before the first test and closed after the last.
 */
export function useApp(options: AppOptions = {}): TestApp {
  const fixture = {} as TestApp
  let stop: (() => Promise<void>) | undefined
  before(async () => {
    const app = await buildApp(await testDevnet(), options)
    stop = app.stop
    Object.assign(fixture, app)
  })
  // The service stops before the devnet it reads closes.
  after(async () => {
    await stop?.()
    await releaseDevnet()
  })
  return fixture
}
