import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { loadConfig } from '../../src/config/load.ts'
import { createApp, type App } from '../../src/app.ts'
import { testBackend } from './postgres.ts'

export type TestApp = App & { url: string; stop(): Promise<void> }

/**
 * The service as a user meets it, listening on 127.0.0.1 on a free port, against the given
 * RPC. The database is PGlite in a temporary directory, or a fresh PostgreSQL database.
 */
export async function startTestApp(options: {
  rpcUrl: string
  database?: 'pglite' | 'postgres'
  env?: Record<string, string>
  images?: import('../../src/adapters/image/port.ts').ImageGenerator
}): Promise<TestApp> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'b2c-test-'))
  const backend = await testBackend(options.database)
  const config = loadConfig({
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATA_DIR: dataDir,
    RPC_URL: options.rpcUrl,
    // Functional tests send far more writes per wallet than a person would; the limits have their
    // own tests (test/ops/abuse.test.ts), which set them explicitly.
    RATE_LIMIT_WRITES_PER_MINUTE: '0',
    RATE_LIMIT_WALLET_WRITES_PER_MINUTE: '0',
    RATE_LIMIT_EXPENSIVE_PER_MINUTE: '0',
    RATE_LIMIT_WALLET_EXPENSIVE_PER_MINUTE: '0',
    ...backend.env,
    ...options.env,
  })
  const app = await createApp(config, { images: options.images })
  const url = await app.listen()
  return {
    ...app,
    url,
    async stop() {
      await app.close()
      await backend.drop()
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}

export async function getJson(url: string, init?: RequestInit): Promise<{ status: number; body: any; headers: Headers }> {
  const response = await fetch(url, init)
  const text = await response.text()
  return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers }
}

export async function postJson(url: string, body: unknown, headers: Record<string, string> = {}) {
  return getJson(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })
}
