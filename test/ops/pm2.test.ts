import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { createRequire } from 'node:module'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { encodeFunctionData, erc20Abi } from 'viem'
import { releaseDevnet, testDevnet, type TestDevnet } from '../support/harness.ts'
import { createAgent } from '../support/agent.ts'
import { compiledMain, freePort } from '../support/service-process.ts'
import { openStream } from '../support/sse.ts'
import { sharedBackends } from '../scale/processes.ts'
import { TEST_DATABASE_URL, TEST_REDIS_URL, needsPostgresAndRedis } from '../support/env.ts'

/**
 * The production layout of one host without containers, as docs/operators/production.md tells an operator to run
 * it: `pm2 start deploy/ecosystem.config.cjs` on the compiled build, against PostgreSQL, Redis
 * and a chain. Two api processes, a worker and the indexer; a plain burn seen by the indexer
 * process reaches a stream client of the second api process through Redis. Runs in the
 * PostgreSQL + Redis leg of `.ci/run` (TEST_BACKEND=postgres): the layout needs both.
 */
// The embedded leg leaves it to the PostgreSQL + Redis leg by design; that leg must have both.
const skip = process.env.TEST_BACKEND !== 'postgres' ? 'runs in the TEST_BACKEND=postgres leg' : needsPostgresAndRedis
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const pm2Bin = path.join(path.dirname(createRequire(import.meta.url).resolve('pm2/package.json')), 'bin', 'pm2')
const DEAD = '0x000000000000000000000000000000000000dEaD'

let devnet: TestDevnet
let backends: Awaited<ReturnType<typeof sharedBackends>>
let pm2Home: string
let base: number
let env: Record<string, string>

function pm2(...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [pm2Bin, ...args], { cwd: root, env, timeout: 120_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`pm2 ${args.join(' ')}: ${error.message}\n${stderr}`))
      else resolve(stdout)
    })
  })
}

async function waitForStatus(url: string, status = 200, timeoutMs = 90_000): Promise<any> {
  const deadline = Date.now() + timeoutMs
  let last: unknown
  for (;;) {
    const answer = await fetch(url).then(async (r) => ({ status: r.status, body: await r.json().catch(() => undefined) }), (error) => ({ status: 0, body: String(error) }))
    if (answer.status === status) return answer.body
    last = answer
    if (Date.now() > deadline) throw new Error(`${url} answered ${JSON.stringify(last)}`)
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

/** What the processes wrote (pm2 keeps one file per process and stream under PM2_HOME/logs). */
async function logsOf(home: string): Promise<string> {
  const dir = path.join(home, 'logs')
  const files = await readdir(dir).catch(() => [] as string[])
  const parts = await Promise.all(files.map(async (file) => `== ${file}\n${(await readFile(path.join(dir, file), 'utf8')).slice(-4000)}`))
  return parts.join('\n')
}

before(async () => {
  if (skip) return
  compiledMain() // dist/ is what pm2 runs: built here when the sources changed
  devnet = await testDevnet()
  backends = await sharedBackends(devnet.url)
  pm2Home = await mkdtemp(path.join(tmpdir(), 'b2c-pm2-'))
  // A free block of ports: api on base and base+1, the worker on base+100, the indexer on base+200.
  base = await freePort()
  if (base > 65_000) base = 20_000 + (base % 20_000)
  env = {
    ...(process.env as Record<string, string>),
    ...backends.env,
    PM2_HOME: pm2Home,
    PORT_BASE: String(base),
    API_INSTANCES: '2',
    WORKER_INSTANCES: '1',
    HOST: '127.0.0.1',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn',
    INDEXER_POLL_MS: '200',
  }
  await pm2('start', 'deploy/ecosystem.config.cjs')
})
after(async () => {
  if (skip) return
  await pm2('kill').catch(() => {})
  await backends?.drop()
  await rm(pm2Home, { recursive: true, force: true })
  await releaseDevnet()
})

test('pm2 runs the sample process file: two api processes, a worker and the indexer share PostgreSQL and Redis', { skip }, async () => {
  const api = [`http://127.0.0.1:${base}`, `http://127.0.0.1:${base + 1}`]
  for (const url of api) {
    const ready = await waitForStatus(`${url}/readyz`)
    assert.equal(ready.status, 'ready', JSON.stringify(ready))
  }
  // The worker and the indexer serve no operation, only their health checks.
  for (const port of [base + 100, base + 200]) {
    assert.equal((await waitForStatus(`http://127.0.0.1:${port}/healthz`)).status, 'ok')
    assert.equal((await fetch(`http://127.0.0.1:${port}/api/price`)).status, 404)
  }
  const processes = JSON.parse(await pm2('jlist')) as Array<{ name: string; pm2_env: { status: string; ROLE?: string } }>
  assert.deepEqual(processes.map((p) => `${p.name}:${p.pm2_env.status}`).sort(), ['b2c-api:online', 'b2c-api:online', 'b2c-indexer:online', 'b2c-worker:online'])

  // A plain burn on chain: only the indexer process sees it; the stream client of the second
  // api process hears it through Redis.
  const stream = await openStream(`${api[1]}/api/events`)
  await stream.waitFor((e) => e.event === 'stats')
  const agent = await createAgent(api[0], devnet.url, 8)
  await agent.buyTokens('1')
  const hash = (await agent.send({ to: devnet.info.contracts.token as `0x${string}`, data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [DEAD, 1000n * 10n ** 18n] }) }))
  await stream.waitFor((e) => e.event === 'burn' && String(e.data.txHash).toLowerCase() === hash.toLowerCase(), 30_000).catch(async (error) => {
    throw new Error(`${error.message}\nlogs of the processes:\n${await logsOf(pm2Home)}`)
  })
  await stream.close()

  // Stopped as pm2 stops them (SIGTERM, see the file): every process exits and frees its port.
  await pm2('delete', 'all')
  for (const url of [...api, `http://127.0.0.1:${base + 100}`, `http://127.0.0.1:${base + 200}`]) {
    await assert.rejects(fetch(`${url}/healthz`), `${url} stopped`)
  }
})
