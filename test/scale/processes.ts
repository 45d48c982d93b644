import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { serviceCommand } from '../../scripts/service-command.ts'
import { freePort } from '../support/service-process.ts'
import { createTestDatabase } from '../support/postgres.ts'
import { TEST_REDIS_URL } from '../support/env.ts'

export type ServiceProcess = { url: string; child: ChildProcess; exited: Promise<number | null>; stop(): Promise<void> }

/** One service process on a free port, ready once it answers a read. */
export async function startService(env: Record<string, string>): Promise<ServiceProcess> {
  const port = String(await freePort())
  const { command, args } = serviceCommand()
  const child = spawn(command, args, {
    env: { ...process.env, LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn', ...env, PORT: port, HOST: '127.0.0.1' },
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 90_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode} before it was ready`)
    const ok = await fetch(`${url}/api/bridge`).then((r) => r.ok, () => false)
    if (ok) break
    if (Date.now() > deadline) {
      child.kill('SIGKILL')
      throw new Error('the service did not become ready in 90 s')
    }
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

/**
 * The shared backends of a multi-process deployment for one test run: a fresh PostgreSQL
 * database, a Redis prefix of its own (runs sharing the Redis server never hear each other)
 * and a data directory; `env` is what every process of the deployment gets.
 */
export async function sharedBackends(rpcUrl: string) {
  const database = await createTestDatabase()
  const dataDir = await mkdtemp(path.join(tmpdir(), 'b2c-scale-'))
  const env: Record<string, string> = {
    RPC_URL: rpcUrl,
    DATABASE_URL: database.url,
    REDIS_URL: TEST_REDIS_URL!,
    REDIS_PREFIX: `scale-${randomBytes(4).toString('hex')}`,
    DATA_DIR: dataDir,
  }
  return {
    env,
    async drop() {
      await database.drop()
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}
