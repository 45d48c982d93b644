import { test } from 'node:test'
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { createRedisBus } from '../../src/adapters/bus/redis.ts'
import { createFreshness } from '../../src/cache/freshness.ts'
import { switchableTcp } from '../faults/switchable.ts'
import { TEST_REDIS_URL } from '../support/env.ts'

/**
 * Redis goes away and comes back: messages published meanwhile never reach the subscriber, so
 * the bus says it reconnected (once it is subscribed again), and what relies on it reacts: the
 * event stream reads the missed events from the store (test/faults/upstreams.test.ts, the Redis
 * case), and every cached answer counts as changed.
 */
test('after a Redis outage the bus reports the reconnect once subscribed again, and every freshness stamp moves', { skip: !TEST_REDIS_URL && 'TEST_REDIS_URL is not set' }, async () => {
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
