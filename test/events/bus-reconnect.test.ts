import { test } from 'node:test'
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { createRedisBus } from '../../src/adapters/bus/redis.ts'
import { createFreshness } from '../../src/cache/freshness.ts'
import { switchableTcp } from '../faults/switchable.ts'
import { TEST_REDIS_URL, needsRedis } from '../support/env.ts'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { openStream } from '../support/sse.ts'
import { releaseDevnet, testConfig, testDevnet } from '../support/harness.ts'
import { createApp } from '../../src/app.ts'
import { type Db } from '../../src/store/db.ts'
import { pooledPglite } from '../support/pglite-pool.ts'
import { listEventsAfter } from '../../src/store/events.ts'
import { publishEvent } from '../../src/events/publish-event.ts'

/**
 * Redis goes away and comes back: messages published meanwhile never reach the subscriber, so
 * the bus says it reconnected (once it is subscribed again), and what relies on it reacts: the
 * event stream reads the missed events from the store (test/faults/upstreams.test.ts, the Redis
 * case), and every cached answer counts as changed.
 */
test('after a Redis outage the bus reports the reconnect once subscribed again, and every freshness stamp moves', { skip: needsRedis }, async () => {
  const redis = new URL(TEST_REDIS_URL!)
  const proxy = await switchableTcp({ host: redis.hostname, port: Number(redis.port || 6379) })
  const prefix = `t-${randomBytes(4).toString('hex')}`
  const bus = await createRedisBus(`redis://127.0.0.1:${proxy.port}`, prefix)
  const direct = await createRedisBus(TEST_REDIS_URL!, prefix)
  const fresh = createFreshness(bus)
  try {
    const before = fresh.stamp(['portraits'])
    let reconnects = 0
    const reconnected = new Promise<void>((resolve) => bus.subscribeReconnects(() => (reconnects++, resolve())))
    const seen: string[] = []
    bus.subscribe((event) => seen.push(event.id))

    await proxy.down()
    // Published while this instance's subscription is cut: lost for it.
    await direct.publish({ id: '1', type: 'stats', data: {} })
    assert.equal(reconnects, 0)
    await proxy.restore()
    await reconnected
    assert.equal(reconnects, 1)
    assert.equal(seen.length, 0, 'the message of the outage was not delivered')
    assert.notEqual(fresh.stamp(['portraits']), before, 'cached answers count as changed')

    // And the subscription works again.
    await direct.publish({ id: '2', type: 'stats', data: {} })
    for (let i = 0; i < 100 && !seen.includes('2'); i++) await new Promise((r) => setTimeout(r, 20))
    assert.deepEqual(seen, ['2'])
  } finally {
    fresh.close()
    await bus.close()
    await direct.close()
    await proxy.down()
  }
})

test('what an instance publishes while Redis is away reaches the other instances once it is back, in order, and the publish does not wait', { skip: needsRedis }, async () => {
  const redis = new URL(TEST_REDIS_URL!)
  const proxy = await switchableTcp({ host: redis.hostname, port: Number(redis.port || 6379) })
  const prefix = `t-${randomBytes(4).toString('hex')}`
  const away = await createRedisBus(`redis://127.0.0.1:${proxy.port}`, prefix)
  const other = await createRedisBus(TEST_REDIS_URL!, prefix)
  try {
    const seen: string[] = []
    const invalidated: unknown[] = []
    other.subscribe((event) => seen.push(event.id))
    other.subscribeInvalidations((message) => void invalidated.push(message))
    await proxy.down()
    // Published while this instance cannot reach Redis: accepted at once, kept in order.
    await away.publish({ id: '10', type: 'burn', data: {} })
    await away.publishInvalidation({ topics: ['portraits'], block: '5', origin: 'x' } as never)
    await away.publish({ id: '11', type: 'burn', data: {} })
    assert.deepEqual(seen, [])
    await proxy.restore()
    for (let i = 0; i < 250 && seen.length < 2; i++) await new Promise((r) => setTimeout(r, 20))
    assert.deepEqual(seen, ['10', '11'])
    assert.equal(invalidated.length, 1)
    // Then live publishing goes on, after them.
    await away.publish({ id: '12', type: 'burn', data: {} })
    for (let i = 0; i < 100 && seen.length < 3; i++) await new Promise((r) => setTimeout(r, 20))
    assert.deepEqual(seen, ['10', '11', '12'])
  } finally {
    await away.close()
    await other.close()
    await proxy.down()
  }
})

test('after a Redis outage the open streams of an instance get what they missed from one read of the store, not one each', { skip: needsRedis }, async () => {
  const devnet = await testDevnet()
  const redis = new URL(TEST_REDIS_URL!)
  const proxy = await switchableTcp({ host: redis.hostname, port: Number(redis.port || 6379) })
  const dataDir = await mkdtemp(path.join(tmpdir(), 'b2c-resync-'))
  // The app's database, counting the reads of missed events.
  const db = await pooledPglite()
  let replays = 0
  const counted: Db = { ...db, query: (sql, params) => (/FROM events WHERE id >/.test(sql) && replays++, db.query(sql, params)) }
  const config = testConfig({ DATA_DIR: dataDir, RPC_URL: devnet.url, REDIS_URL: `redis://127.0.0.1:${proxy.port}`, REDIS_PREFIX: `t-${randomBytes(4).toString('hex')}` })
  const app = await createApp(config, { db: Promise.resolve(counted) })
  const streams: Awaited<ReturnType<typeof openStream>>[] = []
  try {
    const url = await app.listen()
    for (let i = 0; i < 20; i++) streams.push(await openStream(`${url}/api/events`))
    await Promise.all(streams.map((s) => s.waitFor((e) => e.event === 'stats')))

    await proxy.down()
    // Stored while Redis is away; its fan-out waits for Redis (and this instance's own
    // subscription, cut too, reads what it missed from the store once back).
    await publishEvent(app.ctx, 'burn', { txHash: `0x${'ab'.repeat(32)}`, tokenId: '77' })
    const stored = await listEventsAfter(db, 0n, 1000)
    const event = stored.find((e) => e.data.tokenId === '77')
    assert.ok(event, 'stored')
    replays = 0
    await proxy.restore()
    await Promise.all(streams.map((s) => s.waitFor((e) => e.event === 'burn' && e.id === event.id, 15_000)))
    assert.equal(replays, 1, 'one read of the store for the 20 streams')
  } finally {
    await Promise.all(streams.map((s) => s.close()))
    await app.close()
    await proxy.down()
    await rm(dataDir, { recursive: true, force: true })
    await releaseDevnet()
  }
})
