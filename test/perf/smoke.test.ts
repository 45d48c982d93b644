import { test } from 'node:test'
import assert from 'node:assert/strict'
import net from 'node:net'
import { availableParallelism, loadavg } from 'node:os'
import Fastify from 'fastify'
import { encodeFunctionData, erc20Abi, maxUint256 } from 'viem'
import { useApp, type TestApp } from '../support/harness.ts'
import { createAgent, portraitBase64, type Agent } from '../support/agent.ts'
import { looksmaxxBody } from '../support/builders.ts'
import { REFERENCE_MS, median, yardstick } from '../support/machine-speed.ts'
import { publishEvent } from '../../src/events/publish-event.ts'

/**
 * Performance guards inside `npm test` (issue 26: a 25-fold loss of the event stream went
 * unnoticed for a whole round of work). Each bound is a ratio measured in the same test or a
 * generous absolute, so that a 3-fold regression breaks it and the noise of a shared 2-core
 * machine does not; each says the figure it protects (bench/README.md has the benchmarks). The
 * absolutes hold as written on an idle machine of the speed they were set on; under load (the
 * suite's own parallel processes, other work) they stretch by the load per core (`loadStretch`),
 * on a slower machine by how much slower it computes (`speedStretch`). On both backends (TEST_BACKEND).
 */
// The embedded database on its thread, as `npm start` runs it: the stream's regression lived there.
const app = useApp({ embeddedDatabase: 'thread' })

/**
 * How much the absolutes stretch for the machine's load now: the 1-minute load average per core,
 * at least 1. An idle 2-core machine (load up to 2) keeps the bounds as written; at load 8 every
 * runnable thread waits its turn about four times as long at every wake-up, and a request is a
 * chain of wake-ups (the devnet, the database thread, the stylizer thread, the event loop).
 */
const loadStretch = () => Math.max(1, loadavg()[0]! / availableParallelism())

/** How much slower this machine computes now than the one the absolutes were set on (test/support/machine-speed.ts); at least 1. */
const speedStretch = () => Math.max(1, yardstick().wallMs / REFERENCE_MS)

/**
 * Runs `measure`, then says how far its bound stretches: the larger of the load and the
 * machine's speed, each taken before and after and averaged. A 3-fold regression still fails
 * on a slow machine: the bound moves with the machine, not with the code.
 */
async function measured<T>(measure: () => Promise<T>): Promise<{ value: T; stretch: number; load: number; speed: number }> {
  const [loadBefore, speedBefore] = [loadStretch(), speedStretch()]
  const value = await measure()
  const load = (loadBefore + loadStretch()) / 2
  const speed = (speedBefore + speedStretch()) / 2
  return { value, stretch: Math.max(load, speed), load, speed }
}

/** "× 2.4 for the machine (load 2.4, speed 1.3)", for the messages. */
const forMachine = (m: { stretch: number; load: number; speed: number }) => `× ${m.stretch.toFixed(1)} for the machine (load ${m.load.toFixed(1)}, speed ${m.speed.toFixed(1)})`

/** `count` raw event-stream connections, 20 per loopback address (the per-address cap as configured). */
async function openStreams(app: TestApp, count: number) {
  const port = Number(new URL(app.url).port)
  const arrivals = new Map<number, number[]>()
  const sockets: net.Socket[] = []
  await Promise.all(
    Array.from({ length: count }, (_, i) => {
      const group = Math.floor(i / 20)
      const localAddress = `127.3.${Math.floor(group / 250)}.${(group % 250) + 1}`
      return new Promise<void>((resolve, reject) => {
        const socket = net.connect({ port, host: '127.0.0.1', localAddress }, () => socket.write('GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n'))
        sockets.push(socket)
        socket.setEncoding('utf8')
        let answered = false
        socket.on('data', (chunk: string) => {
          const at = performance.now()
          if (!answered) {
            answered = true
            if (!chunk.startsWith('HTTP/1.1 200')) return reject(new Error(`stream ${i} answered ${chunk.slice(0, 80)}`))
            resolve()
          }
          for (const match of chunk.matchAll(/"smoke":(\d+)/g)) {
            const k = Number(match[1])
            let list = arrivals.get(k)
            if (!list) arrivals.set(k, (list = []))
            list.push(at)
          }
        })
        socket.on('error', reject)
      })
    }),
  )
  return { arrivals, close: () => sockets.forEach((s) => s.destroy()) }
}

test('1,000 stream clients: a burn published as they connect reaches them with a p99 under 250 ms (bench: 37 ms at 7258d6e, 406 ms in the regression of issue 26), and as soon as the burns after it', async (t) => {
  const clients = 1000
  // The service done starting (indexer caught up, read models loaded) and one stream served, so
  // what follows is the 1,000 streams and the burns, not the start-up.
  for (let ready = false; !ready; ) ready = (await app.get('/readyz')).status === 200 || (await new Promise((r) => setTimeout(r, 50)), false)
  const warm = await openStreams(app, 1)
  await publishEvent(app.ctx, 'burn', { txHash: `0x${'f'.repeat(64)}`, tokenId: null, smoke: 99 })
  warm.close()
  const opening = performance.now()
  const streams = await openStreams(app, clients)
  const openMs = performance.now() - opening
  try {
    // Published as soon as every client has its answer's headers, while their streams are still
    // opening: the regression queued the opening streams' statements in front of the burns.
    const published = new Map<number, number>()
    const machine = await measured(async () => {
      for (let k = 0; k < 5; k++) {
        published.set(k, performance.now())
        await publishEvent(app.ctx, 'burn', { txHash: `0x${String(k).padStart(64, '0')}`, tokenId: null, smoke: k })
        await new Promise((r) => setTimeout(r, 100))
      }
      const deadline = Date.now() + 20_000
      const complete = () => [...published.keys()].every((k) => (streams.arrivals.get(k)?.length ?? 0) === clients)
      while (!complete() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
    })
    const delays = [...published].flatMap(([k, at]) => (streams.arrivals.get(k) ?? []).map((arrived) => arrived - at))
    assert.equal(delays.length, 5 * clients, 'every client got every burn')
    const sorted = delays.sort((a, b) => a - b)
    const p99 = sorted[Math.floor(sorted.length * 0.99)]!
    const lastClient = [...published].map(([k, at]) => Math.max(...(streams.arrivals.get(k) ?? [at])) - at)
    t.diagnostic(`per burn, last client: ${lastClient.map(Math.round).join(', ')} ms`)
    t.diagnostic(`${clients} streams opened in ${openMs.toFixed(0)} ms; publish → client p50 ${sorted[Math.floor(sorted.length / 2)]!.toFixed(0)} ms, p99 ${p99.toFixed(0)} ms, last ${sorted.at(-1)!.toFixed(0)} ms; bound ${forMachine(machine)}`)
    assert.ok(p99 < 250 * machine.stretch, `publish → client p99 ${p99.toFixed(0)} ms with ${clients} clients (bound 250 ms ${forMachine(machine)}; 37 ms before the regression, 406 ms in it; last client ${sorted.at(-1)!.toFixed(0)} ms)`)
    // The regression's own mark, at any speed of the host: the first burn, published while the
    // streams still open, waited behind their statements; the later ones did not. Measured on a
    // host 2.2 times the reference speed, with and without two busy loops beside it, last client
    // of the first burn against the later ones' median: fixed 20-59 ms against 17-56; one
    // statement per opening stream 137-388 ms; the regression's two 218-1,024 ms (the absolute
    // bound above passed 222 ms of it: it needs a host near the reference speed).
    const [first, ...later] = lastClient
    const steady = median(later)
    const firstBound = 4 * steady + 40 * machine.stretch
    assert.ok(first! <= firstBound, `the first burn reached its last client in ${first!.toFixed(0)} ms, the later ones in a median ${steady.toFixed(0)} ms (bound 4 × that + 40 ms ${forMachine(machine)} = ${firstBound.toFixed(0)} ms): opening streams held it up`)
  } finally {
    streams.close()
  }
})

test('a cached read costs less than 3.3 times a bare Fastify route answering the same bytes: its extra cost does not triple (0.50-0.54 of the bare route through inject, 2026-11-27; bench http-reads: 0.68-0.80 over sockets)', async (t) => {
  const warm = await app.get('/api/price')
  assert.equal(warm.status, 200)
  const bytes = Buffer.from(warm.text)
  const bare = Fastify()
  bare.get('/', (_request, reply) => reply.header('content-type', 'application/json; charset=utf-8').send(bytes))
  await bare.ready()
  // CPU time of this thread, where inject serves a request (the database and devnet threads
  // of the process do their background work elsewhere), in rounds taken in turn: what other
  // processes on the machine inflate least. Linux's schedstat in ns; the process's elsewhere.
  const timeOf = async (run: () => Promise<unknown>, n: number) => {
    const started = performance.now()
    for (let i = 0; i < n; i++) await run()
    return performance.now() - started
  }
  const service = () => app.http.inject({ method: 'GET', url: '/api/price' })
  const baseline = () => bare.inject({ method: 'GET', url: '/' })
  await timeOf(service, 200)
  await timeOf(baseline, 200)
  // Many short slices taken in turn (10 requests each, about a millisecond), and the fastest
  // quarter of each side's: the harness's devnet and indexer share this event loop, and with
  // the machine's other work they land in some slices and slow them several times (a reading
  // per round of a few hundred requests moved from 0.3 to 1.7 at load 10); the fastest slices
  // are the ones nothing interrupted, on both sides alike.
  const baseTimes: number[] = []
  const serviceTimes: number[] = []
  for (let slice = 0; slice < 200; slice++) {
    baseTimes.push(await timeOf(baseline, 10))
    serviceTimes.push(await timeOf(service, 10))
  }
  await bare.close()
  const quarter = (times: number[]) => [...times].sort((a, b) => a - b)[Math.floor(times.length / 4)]!
  const ratio = quarter(baseTimes) / quarter(serviceTimes)
  const per = (ms: number) => `${((ms / 10) * 1000).toFixed(0)} µs`
  t.diagnostic(`cached /api/price at ${ratio.toFixed(2)} of the bare route (per request, fastest quarter of 200 slices: bare ${per(quarter(baseTimes))}, service ${per(quarter(serviceTimes))}; medians ${per(median(baseTimes))}, ${per(median(serviceTimes))})`)
  // 0.53 is an extra 0.9 of the bare route's cost; tripled, 2.7: a ratio of 0.27.
  assert.ok(ratio >= 0.3, `cached /api/price at ${ratio.toFixed(2)} of the bare route's rate (time per request, the fastest quarter of 200 slices of 10 taken in turn: bare ${per(quarter(baseTimes))}, service ${per(quarter(serviceTimes))}; bound 0.3, about 0.53 on 2026-11-27)`)
})

test('one gasless relay answers in under 100 ms (bench gasless: 13-24 ms for a relay on its own)', async (t) => {
  // The demo holder (1,000,000 tokens): four relays of 225,000.
  const holder: Agent = await createAgent(app.url, app.devnet.url, 4)
  await holder.send({ to: holder.contracts.token!, data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [holder.contracts.relayer!, maxUint256] }) })
  const relayOnce = async () => {
    const typed = (await app.get(`/api/gasless/burn?address=${holder.address}`)).body.signTypedData
    const message = { burner: typed.message.burner, nonce: BigInt(typed.message.nonce), deadline: BigInt(typed.message.deadline) }
    const signature = await holder.account.signTypedData({ domain: typed.domain, types: typed.types, primaryType: typed.primaryType, message })
    const started = performance.now()
    const relayed = await app.post('/api/gasless/burn', { burner: holder.address, deadline: Number(message.deadline), signature })
    const ms = performance.now() - started
    assert.equal(relayed.status, 200, JSON.stringify(relayed.body))
    return ms
  }
  await relayOnce()
  const { value: times, ...machine } = await measured(async () => [await relayOnce(), await relayOnce(), await relayOnce()])
  t.diagnostic(`relays in ${times.map((ms) => ms.toFixed(0)).join(', ')} ms; bound ${forMachine(machine)}`)
  assert.ok(median(times) < 100 * machine.stretch, `a relay in ${median(times).toFixed(0)} ms (median of ${times.map((t) => t.toFixed(0)).join(', ')}; bound 100 ms ${forMachine(machine)})`)
})

test('a paid looksmaxx answers with its minted NFT in under 600 ms (bench looksmaxx: p50 182-256 ms sequential)', async (t) => {
  const agent: Agent = await createAgent(app.url, app.devnet.url, 5)
  const image = await portraitBase64()
  for (let eth = 1; (await agent.coinBalance()) < 3n * 225_000n * 10n ** 18n; eth *= 2) await agent.buyTokens(String(eth))
  const requirements = (await app.get('/api/x402/looksmaxx')).body.accepts[0]
  const looksmaxx = async () => {
    const body = await looksmaxxBody(agent, await agent.burn(), { image, requirements })
    const started = performance.now()
    const answer = await app.post('/api/x402/looksmaxx', body)
    const ms = performance.now() - started
    assert.equal(answer.status, 200, JSON.stringify(answer.body))
    assert.equal(await agent.ownerOf(BigInt(answer.body.tokenId)), agent.address, 'the NFT is minted to the agent')
    return ms
  }
  // The first one loads the stylizer's face model (about 1.2 s of CPU once per process); of the
  // two after it the faster counts (the stylizer's thread preempted once does not decide).
  await looksmaxx()
  const { value: times, ...machine } = await measured(async () => [await looksmaxx(), await looksmaxx()])
  const ms = Math.min(...times)
  t.diagnostic(`looksmaxx in ${times.map((one) => one.toFixed(0)).join(', ')} ms; bound ${forMachine(machine)}`)
  assert.ok(ms < 600 * machine.stretch, `a looksmaxx in ${ms.toFixed(0)} ms, the faster of ${times.map((one) => one.toFixed(0)).join(' and ')} (bound 600 ms ${forMachine(machine)})`)
})

test('the stylizer costs at most 6 times a decode and PNG encode of the same portrait (issue 26: about 2; 3.1-3.7 before its stylizer work)', async (t) => {
  const sharp = (await import('sharp')).default
  const { createLocalStylizer } = await import('../../src/adapters/image/local-stylizer.ts')
  const image = Buffer.from(await portraitBase64(), 'base64')
  const stylizer = createLocalStylizer()
  // The yardstick: libvips decoding the portrait and encoding a 1024² PNG of it, as the stylizer
  // must at least; its CPU moves with the machine as the stylizer's does.
  const yardstick = async () => {
    const { data, info } = await sharp(image).raw().toBuffer({ resolveWithObject: true })
    await sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } }).resize(1024, 1024).png({ compressionLevel: 1, adaptiveFiltering: false }).toBuffer()
  }
  const cpuOf = async (run: () => Promise<unknown>) => {
    const before = process.cpuUsage()
    await run()
    const used = process.cpuUsage(before)
    return (used.user + used.system) / 1000
  }
  // The first portrait loads the face model.
  await stylizer.generate({ image, mimeType: 'image/jpeg', seed: '0x00' })
  await yardstick()
  const ratios: number[] = []
  for (let round = 0; round < 5; round++) {
    const base = await cpuOf(yardstick)
    const styled = await cpuOf(() => stylizer.generate({ image, mimeType: 'image/jpeg', seed: `0x0${round + 1}` }))
    ratios.push(styled / ((base + (await cpuOf(yardstick))) / 2))
  }
  const ratio = median(ratios)
  t.diagnostic(`stylizer at ${ratio.toFixed(1)} times the yardstick's CPU (rounds ${ratios.map((r) => r.toFixed(1)).join(', ')})`)
  assert.ok(ratio <= 6, `the stylizer costs ${ratio.toFixed(1)} times a decode and PNG encode of the same portrait (rounds ${ratios.map((r) => r.toFixed(1)).join(', ')}; bound 6, about 2 since issue 26)`)
})
