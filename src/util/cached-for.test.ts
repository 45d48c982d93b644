import { test } from 'node:test'
import assert from 'node:assert/strict'
import { cachedFor, sharedInFlight } from './cached-for.ts'

test('one reading serves the callers of the next ms; a failed reading is not kept', async () => {
  let clock = 0
  let reads = 0
  let fail = false
  const read = cachedFor(
    1000,
    async () => {
      reads++
      if (fail) throw new Error('rpc down')
      return reads
    },
    () => clock,
  )
  assert.equal(await read(), 1)
  clock = 1000
  assert.equal(await read(), 1)
  clock = 1001
  assert.equal(await read(), 2)
  clock = 3000
  fail = true
  await assert.rejects(read())
  fail = false
  assert.equal(await read(), 4, 'read again at once after a failure')
})

test('callers during a reading share it; the next call after it reads again', async () => {
  let reads = 0
  const read = sharedInFlight(async () => {
    await new Promise((r) => setTimeout(r, 5))
    return ++reads
  })
  assert.deepEqual(await Promise.all([read(), read(), read()]), [1, 1, 1])
  assert.equal(await read(), 2)
})
