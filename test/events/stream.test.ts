import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { connect } from 'node:net'
import { useDevnet, pooledPglite, testConfig, type TestApp } from '../support/harness.ts'
import { openStream, streamServices } from '../support/sse.ts'
import { publishEvent } from '../../src/events/publish-event.ts'
import { createApp } from '../../src/app.ts'
import type { Db } from '../../src/store/db.ts'
import { chunkOf } from '../../src/http/sse-writer.ts'

// The socket is the point here: streams are read over HTTP. Each test has its service, so
// none depends on the events another published; only the lifetime test's service closes its
// streams (after 1 s): the others wait for events, never for a lifetime.
const devnet = useDevnet()
const service = streamServices(devnet)

const burnOn = (app: TestApp) => async (n: number) => (await publishEvent(app.ctx, 'burn', { txHash: `0x${String(n).padStart(64, '0')}`, tokenId: String(n) }))!

test('a client gets connected, stats, live burns with ids, and heartbeats carrying its position', async () => {
  const app = await service({ SSE_HEARTBEAT_MS: '50' })
  const burn = burnOn(app)
  const stream = await openStream(`${app.url}/api/events`)
  assert.equal(stream.response.status, 200)
  assert.match(stream.response.headers.get('content-type')!, /^text\/event-stream/)
  assert.equal(stream.response.headers.get('cache-control'), 'no-cache, no-transform')
  await stream.waitFor((e) => e.event === 'stats')
  const published = await burn(1)
  const received = await stream.waitFor((e) => e.event === 'burn')
  assert.equal(received.id, published.id)
  assert.equal(received.data.tokenId, '1')
  // Three heartbeats after the burn: waited for as events, not as time.
  const heartbeatsAfterBurn = () => stream.events.slice(stream.events.indexOf(received) + 1).filter((e) => e.event === 'heartbeat').length
  await stream.waitFor((e) => e.event === 'heartbeat' && heartbeatsAfterBurn() >= 3, 30_000)
  assert.equal(await stream.close(), 'closed')
  const kinds = stream.events.map((e) => e.event)
  assert.equal(stream.events[0]!.retry, 3000, 'a retry hint comes first')
  assert.deepEqual(kinds.slice(1, 3), ['connected', 'stats'])
  assert.ok(kinds.filter((k) => k === 'heartbeat').length >= 3, 'heartbeats keep the stream alive')
  for (const event of stream.events.slice(1)) assert.ok(event.id, `the ${event.event} event has an id`)
  const afterBurn = stream.events.slice(stream.events.indexOf(received) + 1)
  assert.ok(afterBurn.every((e) => e.id === published.id), 'heartbeats carry the position: the last event delivered')
})

test('the stream closes itself at the end of its lifetime, cleanly, with reconnect and the position', async () => {
  const app = await service({ SSE_LIFETIME_MS: '1000' })
  const burn = burnOn(app)
  const published = await burn(2)
  const stream = await openStream(`${app.url}/api/events`, { 'last-event-id': published.id })
  const close = await stream.waitFor((e) => e.event === 'close', 30_000)
  assert.equal(close.data.reconnect, true)
  assert.equal(await stream.done, 'end', 'the server ended the stream cleanly')
  assert.equal(stream.ended, true, 'the server ended the stream')
  const kinds = stream.events.map((e) => e.event)
  assert.equal(stream.events[0]!.retry, 3000, 'a retry hint comes first')
  assert.equal(kinds[1], 'connected')
  assert.equal(kinds.at(-1), 'close')
  assert.equal(close.id, published.id, 'the close carries the position: the last event delivered')
})

test('a client that reconnects with Last-Event-ID receives what it missed, in order, once', async () => {
  const app = await service()
  const burn = burnOn(app)
  const first = await openStream(`${app.url}/api/events`)
  const seen = await burn(10)
  await first.waitFor((e) => e.id === seen.id)
  assert.equal(await first.close(), 'closed')
  const missed = [await burn(11), await burn(12), await burn(13)]
  const second = await openStream(`${app.url}/api/events`, { 'last-event-id': seen.id })
  const last = await second.waitFor((e) => e.id === missed.at(-1)!.id)
  assert.ok(last)
  const burns = second.events.filter((e) => e.event === 'burn').map((e) => e.id)
  assert.deepEqual(burns, missed.map((e) => e.id))
  const live = await burn(14)
  await second.waitFor((e) => e.id === live.id)
  await second.close()
})

test('a backlog longer than one replay arrives in pages, over reconnections, without a gap', async () => {
  // Pages of 500 events: the byte budget (test/events/stream-bounds.test.ts) set out of the way.
  const app = await service({ SSE_REPLAY_MAX_BYTES: String(1024 * 1024) })
  const burn = burnOn(app)
  const seen = await burn(100)
  const missed: Array<{ id: string }> = []
  for (let n = 0; n < 520; n++) missed.push(await burn(1000 + n))
  const first = await openStream(`${app.url}/api/events`, { 'last-event-id': seen.id })
  const close = await first.waitFor((e) => e.event === 'close', 10_000)
  assert.equal(await first.done, 'end', 'the server ended the page cleanly')
  assert.equal(close.data.reason, 'backlog')
  assert.equal(close.data.reconnect, true)
  const page1 = first.events.filter((e) => e.event === 'burn').map((e) => e.id)
  assert.deepEqual(page1, missed.slice(0, 500).map((e) => e.id))
  assert.equal(close.id, page1.at(-1))

  const second = await openStream(`${app.url}/api/events`, { 'last-event-id': close.id! })
  await second.waitFor((e) => e.id === missed.at(-1)!.id)
  await second.close()
  const page2 = second.events.filter((e) => e.event === 'burn').map((e) => e.id)
  assert.deepEqual(page2, missed.slice(500).map((e) => e.id))
})

test('the stream helper tells a broken connection from a clean end', async () => {
  const http = await import('node:http')
  // A server that sends one event and then destroys the socket mid-stream.
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' })
    res.write('event: connected\ndata: {}\n\n', () => setImmediate(() => res.socket?.destroy()))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  try {
    const stream = await openStream(`http://127.0.0.1:${(server.address() as { port: number }).port}/`)
    assert.equal(await stream.done, 'broken')
    assert.equal(stream.events[0]!.event, 'connected')
    await assert.rejects(stream.waitFor((e) => e.event === 'close'), /the stream broke/)
  } finally {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
})

test('issue 26: opening streams runs no statement after an instance\'s first; a slow store holds at most one replay read per position at a time, shared by the streams that wait for it', async () => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'b2c-stream-reads-'))
  const db = await pooledPglite()
  const statements: string[] = []
  // Counts the statements on events; replays take 300 ms, as on a store busy with other work.
  const counted: Db = {
    ...db,
    query: async (sql, params) => {
      if (/\bevents\b/.test(sql)) statements.push(sql)
      if (/FROM events WHERE id >/.test(sql)) await new Promise((r) => setTimeout(r, 300))
      return db.query(sql, params)
    },
  }
  const app = await createApp(testConfig({ DATA_DIR: dataDir, RPC_URL: devnet.url }), { db: Promise.resolve(counted) })
  const streams: Array<Awaited<ReturnType<typeof openStream>>> = []
  try {
    const url = await app.listen()
    const first = await openStream(`${url}/api/events`)
    await first.waitFor((e) => e.event === 'stats')
    streams.push(first)
    const seen = (await publishEvent(app.ctx, 'burn', { txHash: `0x${'01'.repeat(32)}`, tokenId: '1' }))!
    const missed = (await publishEvent(app.ctx, 'burn', { txHash: `0x${'02'.repeat(32)}`, tokenId: '2' }))!
    await first.waitFor((e) => e.id === missed.id)

    statements.length = 0
    const fresh = await Promise.all(Array.from({ length: 19 }, () => openStream(`${url}/api/events`)))
    streams.push(...fresh)
    const stats = await Promise.all(fresh.map((s) => s.waitFor((e) => e.event === 'stats')))
    assert.deepEqual(statements, [], 'no statement for 19 streams opening')
    // Where they start is the instance's newest event, and the count is as stored.
    for (const s of fresh) assert.equal(s.events.find((e) => e.event === 'connected')!.data.lastEventId, missed.id)
    assert.ok(stats.every((e) => e.data.totalBurns === 0))

    statements.length = 0
    await Promise.all(streams.splice(0).map((s) => s.close()))
    const resuming = await Promise.all(Array.from({ length: 20 }, () => openStream(`${url}/api/events`, { 'last-event-id': seen.id })))
    streams.push(...resuming)
    await Promise.all(resuming.map((s) => s.waitFor((e) => e.id === missed.id)))
    const replays = statements.filter((sql) => /FROM events WHERE id >/.test(sql)).length
    // Each read under way serves the streams that asked before it; those asking meanwhile share the next.
    assert.ok(replays >= 1 && replays <= 3, `${replays} replay reads for 20 streams resuming together`)
    assert.equal(statements.length, replays, 'nothing but the replays')
  } finally {
    await Promise.all(streams.map((s) => s.close()))
    await app.close()
    await rm(dataDir, { recursive: true, force: true })
  }
})

/** A stream read off the socket as sent: the response head and the body bytes so far. */
async function rawStream(url: string, version: '1.0' | '1.1') {
  const { hostname, port } = new URL(url)
  const socket = connect(Number(port), hostname)
  socket.write(`GET /api/events HTTP/${version}\r\nHost: ${hostname}:${port}\r\n\r\n`)
  let received = Buffer.alloc(0)
  socket.on('data', (data) => (received = Buffer.concat([received, data])))
  const split = () => {
    const at = received.indexOf('\r\n\r\n')
    return at < 0 ? undefined : { head: received.subarray(0, at).toString(), body: received.subarray(at + 4) }
  }
  return {
    split,
    /** Waits until the body (decoded by `decode`) holds `text`. */
    async waitFor(text: string, decode: (body: Buffer) => string) {
      for (let i = 0; i < 500; i++) {
        const parts = split()
        if (parts && decode(parts.body).includes(text)) return decode(parts.body)
        await new Promise((r) => setTimeout(r, 10))
      }
      throw new Error(`no ${text} in ${received.toString()}`)
    },
    close: () => socket.destroy(),
  }
}

/** The body of a chunked response, each chunk checked against its size line (a partial last chunk waits). */
function dechunk(body: Buffer): string {
  let out = ''
  let at = 0
  for (;;) {
    const line = body.indexOf('\r\n', at)
    if (line < 0) return out
    const size = Number.parseInt(body.subarray(at, line).toString(), 16)
    assert.ok(Number.isInteger(size), `a chunk size line at byte ${at}: ${JSON.stringify(body.subarray(at, line).toString())}`)
    if (body.length < line + 2 + size + 2) return out
    assert.equal(body.subarray(line + 2 + size, line + 4 + size).toString(), '\r\n', 'each chunk ends with CRLF where its size says')
    out += body.subarray(line + 2, line + 2 + size).toString()
    at = line + 4 + size
  }
}

test('on the wire: an event fanned out is one chunk among the stream\'s own writes (HTTP/1.1), and plain bytes to an HTTP/1.0 client', async () => {
  const app = await service({ SSE_HEARTBEAT_MS: '50' })
  const burn = burnOn(app)
  const modern = await rawStream(app.url, '1.1')
  const old = await rawStream(app.url, '1.0')
  try {
    await modern.waitFor('event: stats', dechunk)
    await old.waitFor('event: stats', (body) => body.toString())
    const published = await burn(7)
    const frame = `id: ${published.id}\nevent: burn\ndata: `
    // Heartbeats (written to each stream alone) go on around the shared burn; all in order.
    const chunked = await modern.waitFor(`id: ${published.id}\nevent: heartbeat`, dechunk)
    assert.match(modern.split()!.head, /transfer-encoding: chunked/i)
    assert.ok(chunked.indexOf('event: stats') < chunked.indexOf(frame), 'the burn after the stats event')
    assert.equal(JSON.parse(/^data: (.*)$/m.exec(chunked.slice(chunked.indexOf(frame)))![1]!).tokenId, '7')
    const plain = await old.waitFor(`id: ${published.id}\nevent: heartbeat`, (body) => body.toString())
    assert.doesNotMatch(old.split()!.head, /transfer-encoding/i)
    assert.equal(JSON.parse(/^data: (.*)$/m.exec(plain.slice(plain.indexOf(frame)))![1]!).tokenId, '7')
  } finally {
    modern.close()
    old.close()
  }
})

test('chunkOf frames bytes as one HTTP/1.1 chunk, once per bytes object', () => {
  const bytes = Buffer.from('event: burn\ndata: {}\n\n')
  assert.equal(chunkOf(bytes).toString(), `${bytes.length.toString(16)}\r\nevent: burn\ndata: {}\n\n\r\n`)
  assert.equal(chunkOf(bytes), chunkOf(bytes), 'made once for all the streams it goes to')
})
