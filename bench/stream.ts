/**
 * Event-stream clients on the service as production runs it, fed by real burns: the devnet and
 * the service in processes of their own (the indexer running, as `npm start` runs it), the
 * clients in a child process, spread over loopback addresses so the per-address cap stays as
 * configured. Each burn is a token transfer to the dead address mined on the devnet; the indexer
 * reads its block, stores its `burn` event and fans it out. Figures per burn, from the moment the
 * indexer stored its event (events.created_at, read from the database afterwards) to the LAST
 * client that received it, and from the block being mined (the receipt) to the last client.
 *
 * Baseline, in the same run and conditions: a bare node:http server writing one frame of the
 * same size to as many SSE clients (the same client process), from its write to the last client:
 * the floor of a fan-out on this machine now.
 *
 * One process (embedded, PGlite) always; with BENCH_DATABASE_URL and BENCH_REDIS_URL also two
 * processes on PostgreSQL and Redis, half of the clients on each (one indexer holds the lease and
 * publishes through Redis).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import http from 'node:http'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { createPublicClient, createWalletClient, erc20Abi, http as viemHttp, parseUnits } from 'viem'
import { startDevnetProcess, type DevnetProcess } from './devnet-process.ts'
import { startService, type ServiceProcess } from '../test/scale/processes.ts'
import { testAccount } from '../test/support/accounts.ts'
import { openDb } from '../src/store/db.ts'
import { BURN_ADDRESS } from '../src/chain/constants.ts'
import { createViemChain } from '../src/chain/clients.ts'
import { table } from './support.ts'
import { runDate, yesNo, type BenchResult, type Headline } from './summary.ts'

/** Burn stored → last client, p99 over the burns, with 10,000 clients (issue 26). */
const TARGET_MS = 150
/** The figure before the regression (7258d6e, issue 26): publish → client p99, 1,000 / 5,000 clients. */
const BEFORE_REGRESSION = '7258d6e: publish → client p99 37 ms at 1,000 clients, 155 ms at 5,000 (synthetic events, in process)'
const BURNS = Number(process.env.BENCH_BURNS ?? 10)
/** Between two burns: most land in an indexer pass of their own (INDEXER_POLL_MS, 1 s). */
const BURN_INTERVAL_MS = 700
/** Clients per loopback address: the per-address cap's default (SSE_MAX_STREAMS_PER_ADDRESS). */
const PER_ADDRESS = 20
const HOLDER = 4

type Clients = { child: ChildProcess; connected: number; refused: Record<string, number>; finish(txs: string[]): Promise<{ complete: number; arrivals: Record<string, number[]> }> }

/** Opens `count` stream clients on `urls` (child process) and waits until all have answered. */
async function openClients(urls: string[], count: number): Promise<Clients> {
  const entry = fileURLToPath(new URL('./stream-clients.ts', import.meta.url))
  const child = spawn(process.execPath, ['--import', 'tsx', entry, JSON.stringify({ urls, count, perAddress: PER_ADDRESS })], { stdio: ['pipe', 'pipe', 'inherit'] })
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]()
  const ready = JSON.parse((await lines.next()).value as string) as { connected: number; refused: Record<string, number> }
  return {
    child,
    ...ready,
    async finish(txs) {
      child.stdin!.end(JSON.stringify(txs) + '\n')
      return JSON.parse((await lines.next()).value as string)
    },
  }
}

type Delays = { perBurnLast: number[]; all: number[] }
const pct = (values: number[], p: number) => (values.length ? [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]! : NaN)
const ms = (n: number) => (Number.isFinite(n) ? `${Math.round(n)} ms` : 'n/a')

/** Per burn, from its start time to each client. */
function delaysFrom(starts: Map<string, number>, arrivals: Record<string, number[]>): Delays {
  const perBurnLast: number[] = []
  const all: number[] = []
  for (const [tx, start] of starts) {
    const got = arrivals[tx] ?? []
    if (got.length === 0) continue
    perBurnLast.push(Math.max(...got) - start)
    for (const at of got) all.push(at - start)
  }
  return { perBurnLast, all }
}

/** The floor: a bare node:http server writing one frame of a burn's size to every client. */
async function bareFanOut(clients: number): Promise<{ delays: Delays; connected: number; complete: number }> {
  const responses: http.ServerResponse[] = []
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' })
    res.flushHeaders()
    responses.push(res)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  try {
    const set = await openClients([`http://127.0.0.1:${(server.address() as { port: number }).port}/`], clients)
    await new Promise((r) => setTimeout(r, 1000))
    const starts = new Map<string, number>()
    for (let i = 0; i < BURNS; i++) {
      const txHash = `0x${randomBytes(32).toString('hex')}`
      // A burn event's shape and size as the indexer publishes it.
      const data = { txHash, burner: '0x90F79bf6EB2c4f870365E785982E1f101E93b906', tokenId: null, cid: null, ipfsUrl: null, source: 'transfer', amount: 1, timestamp: new Date().toISOString() }
      const frame = Buffer.from(`id: ${i + 1}\nevent: burn\ndata: ${JSON.stringify(data)}\n\n`)
      starts.set(txHash, performance.timeOrigin + performance.now())
      for (const res of responses) res.write(frame)
      await new Promise((r) => setTimeout(r, BURN_INTERVAL_MS))
    }
    const { complete, arrivals } = await set.finish([...starts.keys()])
    return { delays: delaysFrom(starts, arrivals), connected: set.connected, complete }
  } finally {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
}

const rssMb = (pid: number) => Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024)

type Run = {
  label: string
  clients: number
  connected: number
  refused: Record<string, number>
  complete: number
  stored: Delays
  mined: Delays
  minedToStored: number[]
  rss: Array<[number, number]>
}

/**
 * One deployment (1 or 2 service processes) with `clients` stream clients and BURNS real burns.
 * `database`: a PostgreSQL URL (2 processes, with `redis`), else each process embeds PGlite.
 */
async function serviceRun(devnet: DevnetProcess, clients: number, backends?: { database: string; redis: string; prefix: string }): Promise<Run> {
  const dataDir = await mkdtemp(path.join(process.env.BENCH_TMP ?? tmpdir(), 'b2c-bench-stream-'))
  const env: Record<string, string> = {
    RPC_URL: devnet.url,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    // The clients do not reconnect as an EventSource would: no stream may end during the run.
    SSE_LIFETIME_MS: String(30 * 60_000),
    ...(backends ? { DATABASE_URL: backends.database, REDIS_URL: backends.redis, REDIS_PREFIX: backends.prefix } : {}),
  }
  const services: ServiceProcess[] = []
  let set: Clients | undefined
  try {
    services.push(await startService(env))
    if (backends) services.push(await startService(env))
    const urls = services.map((s) => `${s.url}/api/events`)
    const chain = createViemChain(devnet.url, 'https://x', devnet.contracts.multicall3)
    const wallet = createWalletClient({ chain, account: testAccount(HOLDER).account, transport: viemHttp(devnet.url) })
    const reader = createPublicClient({ chain, transport: viemHttp(devnet.url) })
    const burn = async () => {
      const hash = await wallet.writeContract({ address: devnet.contracts.token, abi: erc20Abi, functionName: 'transfer', args: [BURN_ADDRESS, parseUnits('1', 18)] })
      await reader.waitForTransactionReceipt({ hash, pollingInterval: 5 })
      return { hash: hash.toLowerCase(), mined: performance.timeOrigin + performance.now() }
    }
    // Warm-up: one burn seen on a stream of each process, so the indexer has caught up with the
    // chain and every process has served a stream before the clients come.
    const warm = await openClients(urls, urls.length)
    const first = await burn()
    await warm.finish([first.hash])
    const before = services.map((s) => rssMb(s.child.pid!))
    set = await openClients(urls, clients)
    await new Promise((r) => setTimeout(r, 2000))
    const during = services.map((s) => rssMb(s.child.pid!))
    const mined = new Map<string, number>()
    for (let i = 0; i < BURNS; i++) {
      const { hash, mined: at } = await burn()
      mined.set(hash, at)
      await new Promise((r) => setTimeout(r, BURN_INTERVAL_MS))
    }
    const { complete, arrivals } = await set.finish([...mined.keys()])
    await Promise.all(services.map((s) => s.stop()))
    // When the indexer stored each burn's event (now() of its insert), read once the services stopped.
    const stored = await storedAt(backends?.database ?? path.join(dataDir, 'db'), [...mined.keys()], !backends)
    return {
      label: backends ? '2 processes, PostgreSQL + Redis' : '1 process, embedded',
      clients,
      connected: set.connected,
      refused: set.refused,
      complete,
      stored: delaysFrom(stored, arrivals),
      mined: delaysFrom(mined, arrivals),
      minedToStored: [...mined].filter(([tx]) => stored.has(tx)).map(([tx, at]) => stored.get(tx)! - at),
      rss: services.map((_, i) => [before[i]!, during[i]!]),
    }
  } finally {
    set?.child.kill()
    await Promise.all(services.map((s) => s.stop()))
    await rm(dataDir, { recursive: true, force: true })
  }
}

/** events.created_at of each burn's event, in ms since the epoch, keyed by transaction. */
async function storedAt(database: string, txs: string[], embedded: boolean): Promise<Map<string, number>> {
  const sql = `SELECT dedupe_key AS key, (extract(epoch FROM created_at) * 1000)::float8 AS at FROM events WHERE dedupe_key = ANY($1)`
  const keys = txs.map((tx) => `burn-tx:${tx}`)
  let rows: Array<{ key: string; at: number }>
  if (embedded) {
    const db = await openDb({ dataDir: database })
    rows = (await db.query<{ key: string; at: number }>(sql, [keys])).rows
    await db.close()
  } else {
    const client = new pg.Client({ connectionString: database })
    await client.connect()
    rows = (await client.query(sql, [keys])).rows
    await client.end()
  }
  return new Map(rows.map((r) => [r.key.slice('burn-tx:'.length), Number(r.at)]))
}

async function createDatabase(admin: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `bench_stream_${randomBytes(4).toString('hex')}`
  const client = new pg.Client({ connectionString: admin })
  await client.connect()
  await client.query(`CREATE DATABASE ${name}`)
  await client.end()
  const url = new URL(admin)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: admin })
      await c.connect()
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await c.end()
    },
  }
}

export async function benchStream(clients = 10_000): Promise<BenchResult> {
  const bare = await bareFanOut(clients)
  const bareLast = pct(bare.delays.perBurnLast, 0.99)
  const devnet = await startDevnetProcess()
  const runs: Run[] = []
  try {
    runs.push(await serviceRun(devnet, clients))
    const admin = process.env.BENCH_DATABASE_URL
    const redis = process.env.BENCH_REDIS_URL
    if (admin && redis) {
      const database = await createDatabase(admin)
      try {
        runs.push(await serviceRun(devnet, clients, { database: database.url, redis, prefix: `bench-stream-${randomBytes(4).toString('hex')}` }))
      } finally {
        await database.drop()
      }
    }
  } finally {
    await devnet.close()
  }

  const headlines: Headline[] = runs.map((run) => {
    const last = pct(run.stored.perBurnLast, 0.99)
    const met = last < TARGET_MS && run.complete === clients && run.connected === clients
    return {
      name: `stream (${run.label})`,
      figure: `burn stored → last of ${run.connected} clients, p99 over ${run.stored.perBurnLast.length} real burns ${ms(last)} (${run.complete} got every burn); block mined → last client ${ms(pct(run.mined.perBurnLast, 0.99))}`,
      baseline: `bare node:http fan-out of the same frame to ${bare.connected} clients: ${ms(bareLast)}; before the regression ${BEFORE_REGRESSION}`,
      ratio: (last / bareLast).toFixed(2),
      target: `p99 < ${TARGET_MS} ms at 10,000 clients`,
      met: yesNo(met) + (clients < 10_000 ? ` (at ${clients} clients)` : ''),
      date: runDate(),
    }
  })

  const rows = [
    {
      run: `bare node:http, ${bare.connected} clients`,
      'got every burn': `${bare.complete}`,
      'to the last client, p50 / p99 over burns': `${ms(pct(bare.delays.perBurnLast, 0.5))} / ${ms(bareLast)}`,
      'to a client, p50 / p99 of all deliveries': `${ms(pct(bare.delays.all, 0.5))} / ${ms(pct(bare.delays.all, 0.99))}`,
      'block mined → last client, p50 / p99': '',
      'mined → stored, p50 / max': '',
      'RSS MB before → with clients': '',
    },
    ...runs.map((run) => ({
      run: `${run.label}, ${run.connected} of ${run.clients} clients${Object.keys(run.refused).length ? ` (refused: ${JSON.stringify(run.refused)})` : ''}`,
      'got every burn': `${run.complete}`,
      'to the last client, p50 / p99 over burns': `${ms(pct(run.stored.perBurnLast, 0.5))} / ${ms(pct(run.stored.perBurnLast, 0.99))}`,
      'to a client, p50 / p99 of all deliveries': `${ms(pct(run.stored.all, 0.5))} / ${ms(pct(run.stored.all, 0.99))}`,
      'block mined → last client, p50 / p99': `${ms(pct(run.mined.perBurnLast, 0.5))} / ${ms(pct(run.mined.perBurnLast, 0.99))}`,
      'mined → stored, p50 / max': `${ms(pct(run.minedToStored, 0.5))} / ${ms(Math.max(...run.minedToStored))}`,
      'RSS MB before → with clients': run.rss.map(([a, b]) => `${a} → ${b}`).join(', '),
    })),
  ]
  const section = [
    `${BURNS} burns (token transfers to the dead address, ${BURN_INTERVAL_MS} ms apart) per service run; times from the burn's event being stored by the indexer (bare: from the write) to each client. Baseline before the regression: ${BEFORE_REGRESSION}.`,
    '',
    table(rows),
  ].join('\n')
  return { section, headlines }
}
