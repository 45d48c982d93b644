/**
 * Soak: mixed traffic against two service processes on PostgreSQL + Redis sharing one devnet:
 * reads (price, stats, gallery) at a steady rate, 2 paid looksmaxx per second (POST
 * `/api/x402/looksmaxx` with real burns and x402 payments, as agents pay) and 1,000 stream
 * clients (20 per loopback address, the per-address cap as configured), for SOAK_SECONDS (600 by
 * default, at most 3,600). Prints memory (RSS of each process), read latency and error counts for
 * the first and the last minute (or fifth of the run), and the NFTs the agents own on chain.
 * Needs BENCH_DATABASE_URL (a PostgreSQL server; a database is created and dropped) and
 * BENCH_REDIS_URL. Everything binds 127.0.0.1.
 */
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import http from 'node:http'
import pg from 'pg'
import { startDevnetProcess } from './devnet-process.ts'
import { startService } from '../test/scale/processes.ts'
import { createAgent, portraitBase64, type Agent } from '../test/support/agent.ts'
import { runDate, yesNo, type BenchResult } from './summary.ts'

type Window = { reads: number[]; readErrors: number; posts: number; postErrors: number; rss: number[]; errorSamples: string[] }
const newWindow = (): Window => ({ reads: [], readErrors: 0, posts: 0, postErrors: 0, rss: [], errorSamples: [] })
const pct = (values: number[], p: number) => (values.length ? [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]! : 0)
const rssOf = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024

export async function benchSoak(seconds = Math.min(3600, Number(process.env.SOAK_SECONDS ?? 600)), clients = Number(process.env.SOAK_CLIENTS ?? 1000)): Promise<BenchResult> {
  const admin = process.env.BENCH_DATABASE_URL
  const redis = process.env.BENCH_REDIS_URL
  if (!admin || !redis) throw new Error('soak needs BENCH_DATABASE_URL and BENCH_REDIS_URL')
  const name = `soak_${randomBytes(4).toString('hex')}`
  const client = new pg.Client({ connectionString: admin })
  await client.connect()
  await client.query(`CREATE DATABASE ${name}`)
  const dbUrl = new URL(admin)
  dbUrl.pathname = `/${name}`
  const devnet = await startDevnetProcess()
  const env = { RPC_URL: devnet.url, DATABASE_URL: dbUrl.toString(), REDIS_URL: redis, REDIS_PREFIX: name, DATA_DIR: `/tmp/${name}`, LOG_LEVEL: 'error',
    // All the soak's agents share one address (127.0.0.1) and post 120 writes a minute together:
    // the per-IP write limit (120 a minute) is for one client, not for a crowd behind one address.
    RATE_LIMIT_WRITES_PER_MINUTE: '1200', SSE_LIFETIME_MS: String(seconds * 1000 + 60_000) }
  const services = [await startService(env), await startService(env)]
  const streams: http.ClientRequest[] = []
  let closing = false
  try {
    // Stream clients, half on each process, kept open for the whole run; 20 per loopback
    // address (127.4.x.y), as many users are, so the per-address cap stays as configured.
    let streamErrors = 0
    for (let i = 0; i < clients; i++) {
      const group = Math.floor(i / 20)
      const localAddress = `127.4.${Math.floor(group / 250)}.${(group % 250) + 1}`
      const request = http.get(`${services[i % 2]!.url}/api/events`, { agent: false, localAddress }, (response) => {
        if (response.statusCode !== 200) streamErrors++
        response.resume()
        response.on('close', () => { if (!closing) streamErrors++ })
      })
      request.on('error', () => { if (!closing) streamErrors++ })
      streams.push(request)
    }
    const image = await portraitBase64()
    // Agents 4-9 burn in turn; the demo holder has tokens, the others buy as they go.
    const agents: Agent[] = await Promise.all([4, 5, 6, 7, 8, 9].map((i) => createAgent(services[0]!.url, devnet.url, i)))
    const requirements = ((await (await fetch(`${services[0]!.url}/api/x402/looksmaxx`)).json()) as { accepts: unknown[] }).accepts[0]
    const nftsOwned = async () => (await Promise.all(agents.map((agent) => agent.nftBalance()))).reduce((sum, n) => sum + n, 0n)
    const ownedBefore = await nftsOwned()
    const windows = { first: newWindow(), last: newWindow() }
    const started = Date.now()
    const span = Math.min(60_000, (seconds * 1000) / 5)
    const windowAt = () => (Date.now() - started < span ? windows.first : Date.now() > started + seconds * 1000 - span ? windows.last : undefined)
    const until = started + seconds * 1000
    const readLoop = async (k: number) => {
      const paths = ['/api/price', '/api/stats', '/api/gallery']
      while (Date.now() < until) {
        const t = performance.now()
        const ok = await fetch(`${services[k % 2]!.url}${paths[k++ % 3]}`).then((r) => r.arrayBuffer().then(() => r.ok), () => false)
        const w = windowAt()
        if (w) { w.reads.push(performance.now() - t); if (!ok) w.readErrors++ }
        await new Promise((r) => setTimeout(r, 20))
      }
    }
    const postLoop = async (agent: Agent, k: number) => {
      while (Date.now() < until) {
        const next = Date.now() + agents.length * 500
        try {
          // Every buy moves the pool's price up: after a few hundred portraits 1 ETH no longer
          // buys 225,000 tokens, so buy until the wallet holds enough.
          for (let eth = 1; (await agent.coinBalance()) < 225_000n * 10n ** 18n; eth *= 2) await agent.buyTokens(String(eth))
          const burns = await agent.burn()
          // Paid as an agent pays: the x402 payment signed for the 402's requirements (1 USDm).
          const body = { ...burns, burnerAddress: agent.address, image, paymentPayload: await agent.signPayment(requirements) }
          const r = await fetch(`${services[k++ % 2]!.url}/api/x402/looksmaxx`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
          const w = windowAt()
          if (w) {
            w.posts++
            if (r.status !== 200) {
              w.postErrors++
              if (w.errorSamples.length < 3) w.errorSamples.push(`HTTP ${r.status} ${(await r.text()).slice(0, 200)}`)
            }
          }
        } catch (error) {
          const w = windowAt()
          if (w) {
            w.posts++
            w.postErrors++
            if (w.errorSamples.length < 3) w.errorSamples.push(`client: ${String((error as Error)?.message ?? error).split('\n')[0]!.slice(0, 200)}`)
          }
        }
        await new Promise((r) => setTimeout(r, Math.max(0, next - Date.now())))
      }
    }
    const sampler = setInterval(() => { const w = windowAt(); if (w) w.rss.push(...services.map((s) => rssOf(s.child.pid!))) }, 5_000)
    await Promise.all([...Array.from({ length: 8 }, (_, k) => readLoop(k)), ...agents.map((a, k) => postLoop(a, k))])
    clearInterval(sampler)
    const minted = Number((await nftsOwned()) - ownedBefore)
    const row = (label: string, w: Window) =>
      `| ${label} | ${Math.round(Math.max(0, ...w.rss))} | ${w.reads.length} | ${pct(w.reads, 0.5).toFixed(1)} | ${pct(w.reads, 0.99).toFixed(1)} | ${w.readErrors} | ${w.posts} | ${w.postErrors} |`
    const { first, last } = windows
    const rss = (w: Window) => Math.round(Math.max(0, ...w.rss))
    const errors = first.readErrors + last.readErrors + first.postErrors + last.postErrors + streamErrors
    const headline = {
      name: 'soak',
      figure: `${seconds} s, 2 processes: RSS ${rss(first)} → ${rss(last)} MB, read p99 ${pct(first.reads, 0.99).toFixed(0)} → ${pct(last.reads, 0.99).toFixed(0)} ms, ${errors} errors, ${minted} paid looksmaxx minted (on chain)`,
      baseline: 'the first window of the same run',
      ratio: `RSS ${(rss(last) / Math.max(1, rss(first))).toFixed(2)}, read p99 ${(pct(last.reads, 0.99) / Math.max(1, pct(first.reads, 0.99))).toFixed(2)}`,
      target: 'no growth of memory or latency, no errors (600 s)',
      // Growth within a fifth is noise between windows; a run shorter than the 10 minutes proves nothing.
      met: seconds < 600 ? 'not proven (shorter than 600 s)' : yesNo(errors === 0 && rss(last) <= rss(first) * 1.2 && pct(last.reads, 0.99) <= pct(first.reads, 0.99) * 1.2),
      date: runDate(),
    }
    const section = [
      `${seconds} s, 2 processes (PostgreSQL + Redis), ${clients} stream clients (${streamErrors} dropped), 8 read loops, ${agents.length} agents paying for a looksmaxx in turn (about 2 per second): ${minted} NFTs minted, counted on chain`,
      '',
      '| window | max RSS per process MB | reads | read p50 ms | read p99 ms | read errors | looksmaxx | looksmaxx errors |',
      '| --- | --- | --- | --- | --- | --- | --- | --- |',
      row(`first ${span / 1000} s`, windows.first),
      row(`last ${span / 1000} s`, windows.last),
      ...[...first.errorSamples, ...last.errorSamples].map((sample) => `\nError: ${sample}`),
    ].join('\n')
    return { section, headlines: [headline] }
  } finally {
    closing = true
    for (const s of streams) s.destroy()
    await Promise.all(services.map((s) => s.stop()))
    await devnet.close()
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    await client.end()
  }
}
