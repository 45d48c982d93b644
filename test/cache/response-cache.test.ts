import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createResponseCache, type CachedResponse } from '../../src/cache/response-cache.ts'

const answer = (text: string, status = 200): CachedResponse => ({ status, bytes: Buffer.from(text), etag: `"${text}"` })

/** A computation the test finishes by hand, counting how often the cache started one. */
function computations() {
  const started: Array<(value: CachedResponse) => void> = []
  const failures: Array<(error: Error) => void> = []
  return {
    compute: () => new Promise<CachedResponse>((resolve, reject) => { started.push(resolve); failures.push(reject) }),
    get count() { return started.length },
    finish: (value: CachedResponse) => started.at(-1)!(value),
    fail: (error: Error) => failures.at(-1)!(error),
  }
}
const settle = () => new Promise((resolve) => setImmediate(resolve))

/** A cache on a clock the test moves, holding the answer 'old' computed at time 0. */
async function primed() {
  const clock = { now: 0 }
  const cache = createResponseCache(10, () => clock.now)
  const c = computations()
  const first = cache.get('k', 100, c.compute, 200)
  c.finish(answer('old'))
  await first
  return { clock, cache, c }
}

test('concurrent misses share one computation; a fresh answer is served without computing', async () => {
  let now = 0
  const cache = createResponseCache(10, () => now)
  const c = computations()
  const first = cache.get('k', 100, c.compute)
  const second = cache.get('k', 100, c.compute)
  c.finish(answer('one'))
  assert.equal((await first).bytes.toString(), 'one')
  assert.equal((await second).bytes.toString(), 'one')
  now = 99
  assert.equal((await cache.get('k', 100, c.compute)).bytes.toString(), 'one')
  assert.equal(c.count, 1)
})

test('past its lifetime the last answer is served at once while one refresh runs', async () => {
  const { clock, cache, c } = await primed()
  clock.now = 150 // expired, within the stale window (up to 100 + 200)
  assert.equal((await cache.get('k', 100, c.compute, 200)).bytes.toString(), 'old', 'no reader waits for the refresh')
  assert.equal((await cache.get('k', 100, c.compute, 200)).bytes.toString(), 'old')
  assert.equal(c.count, 2, 'one refresh, however many readers')
  c.finish(answer('new'))
  await settle()
  assert.equal((await cache.get('k', 100, c.compute, 200)).bytes.toString(), 'new')
  assert.equal(c.count, 2)
})

test('a failed refresh keeps the stale answer until the stale window ends, then the caller waits', async () => {
  const { clock, cache, c } = await primed()
  clock.now = 200
  assert.equal((await cache.get('k', 100, c.compute, 200)).bytes.toString(), 'old')
  c.fail(new Error('rpc down'))
  await settle()
  assert.equal((await cache.get('k', 100, c.compute, 200)).bytes.toString(), 'old', 'still within the window: served, another refresh started')
  assert.equal(c.count, 3)
  c.finish(answer('error', 502))
  await settle()

  clock.now = 301 // past the stale window: the answer is no longer served
  const waiting = cache.get('k', 100, c.compute, 200)
  assert.equal(c.count, 4)
  c.finish(answer('fresh'))
  assert.equal((await waiting).bytes.toString(), 'fresh')
})

test('errors are not cached, and clear() drops everything', async () => {
  const cache = createResponseCache(10, () => 0)
  const c = computations()
  const failed = cache.get('k', 100, c.compute)
  c.finish(answer('error', 502))
  assert.equal((await failed).status, 502)
  const retried = cache.get('k', 100, c.compute)
  assert.equal(c.count, 2, 'the next caller computes again')
  c.finish(answer('ok'))
  await retried
  cache.clear()
  void cache.get('k', 100, c.compute)
  assert.equal(c.count, 3)
})

test('without a stale window an expired answer is never served: the caller waits for a fresh one', async () => {
  let now = 0
  const cache = createResponseCache(10, () => now)
  const c = computations()
  const first = cache.get('quote', 100, c.compute)
  c.finish(answer('old'))
  await first
  now = 101
  const waiting = cache.get('quote', 100, c.compute)
  assert.equal(c.count, 2)
  c.finish(answer('fresh'))
  assert.equal((await waiting).bytes.toString(), 'fresh')
})

test('an answer computed before a change is never served after it, not even within its stale window', async () => {
  const clock = { now: 0 }
  const cache = createResponseCache(10, () => clock.now)
  const c = computations()
  const first = cache.get('k', 100, c.compute, 200, { stamp: 'v1' })
  c.finish(answer('old'))
  await first
  assert.equal((await cache.get('k', 100, c.compute, 200, { stamp: 'v1' })).bytes.toString(), 'old')
  clock.now = 150 // within the stale window: still, a changed stamp waits for a fresh answer
  const waiting = cache.get('k', 100, c.compute, 200, { stamp: 'v2' })
  assert.equal(c.count, 2)
  c.finish(answer('new'))
  assert.equal((await waiting).bytes.toString(), 'new')
  assert.equal((await cache.get('k', 100, c.compute, 200, { stamp: 'v2' })).bytes.toString(), 'new')
})

test('a computation started before a change is not joined by readers after it', async () => {
  const cache = createResponseCache(10, () => 0)
  const c = computations()
  const early = cache.get('k', 100, c.compute, 0, { stamp: 'v1' })
  const late = cache.get('k', 100, c.compute, 0, { stamp: 'v2' })
  assert.equal(c.count, 2, 'the reader after the change computes its own answer')
  c.finish(answer('new'))
  assert.equal((await late).bytes.toString(), 'new')
  void early
})

test('minBlock: an answer older than the block the caller needs is computed again, and says its block', async () => {
  const cache = createResponseCache(10, () => 0)
  const c = computations()
  const first = cache.get('k', 100, c.compute, 0, { stamp: 'v', block: 10n })
  c.finish(answer('at 10'))
  assert.equal((await first).block, 10n)
  assert.equal((await cache.get('k', 100, c.compute, 0, { stamp: 'v', block: 12n, minBlock: 10n })).bytes.toString(), 'at 10')
  const newer = cache.get('k', 100, c.compute, 0, { stamp: 'v', block: 12n, minBlock: 12n })
  assert.equal(c.count, 2)
  c.finish(answer('at 12'))
  assert.equal((await newer).block, 12n)
  assert.equal((await cache.get('k', 100, c.compute, 0, { stamp: 'v', block: 12n })).bytes.toString(), 'at 12')
})
