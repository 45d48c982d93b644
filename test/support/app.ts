import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { testAppOptions, testConfig } from './harness.ts'
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
  const config = testConfig({ DATA_DIR: dataDir, RPC_URL: options.rpcUrl, ...backend.env, ...(options.env ?? {}) })
  const app = await createApp(config, testAppOptions(config, options.images))
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
