import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createMemoryBus } from '../../src/adapters/bus/memory.ts'
import { createFreshness } from '../../src/cache/freshness.ts'

test('a change bumps only its topics, here at once and on every instance of the bus', async () => {
  const bus = createMemoryBus()
  const here = createFreshness(bus)
  const there = createFreshness(bus)
  const stamps = (f: typeof here) => ({ pool: f.stamp(['pool']), board: f.stamp(['portraits', 'profiles']) })
  const [before, beforeThere] = [stamps(here), stamps(there)]
  await here.changed(['portraits'], 42n)
  assert.equal(stamps(here).pool, before.pool, 'a mint does not renew quotes')
  assert.notEqual(stamps(here).board, before.board)
  assert.notEqual(stamps(there).board, beforeThere.board, 'the other instance heard it')
  assert.equal(here.block(), 42n)
  assert.equal(there.block(), 42n)
  const after = stamps(here).board
  await there.changed(['token'])
  assert.equal(stamps(here).board, after, 'other topics leave the board alone')
  here.reached(41n)
  assert.equal(here.block(), 42n, 'the known block never goes back')
})
