import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createPollLoop } from './poll-loop.ts'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

test('looks run one at a time while active; a wake during a look brings the next one at once; inactive, it stops', async () => {
  let active = true
  let running = 0
  let overlapped = false
  const starts: number[] = []
  const loop = createPollLoop({
    intervalMs: 10_000,
    active: () => active,
    look: async () => {
      overlapped ||= running > 0
      running++
      starts.push(Date.now())
      await sleep(20)
      running--
    },
    onError: () => {},
  })
  loop.wake()
  await sleep(5)
  loop.wake() // during the first look: the second follows it without the 10 s interval
  loop.wake()
  for (let i = 0; i < 100 && starts.length < 2; i++) await sleep(5)
  assert.equal(starts.length, 2, 'two looks: the wakes during the first one share the second')
  assert.ok(!overlapped, 'never two looks at once')
  active = false
  await loop.settle()
  await sleep(30)
  assert.equal(starts.length, 2, 'no look once inactive')
})

test('a failed look is reported and the loop goes on; exclusive work waits for the look under way', async () => {
  const errors: unknown[] = []
  const order: string[] = []
  let looks = 0
  const loop = createPollLoop({
    intervalMs: 5,
    active: () => looks < 3,
    look: async () => {
      looks++
      order.push('look')
      await sleep(10)
      if (looks === 1) throw new Error('rpc down')
    },
    onError: (error) => errors.push(error),
  })
  loop.wake()
  await sleep(1)
  await loop.exclusive(async () => {
    order.push('exclusive')
  })
  assert.deepEqual(order.slice(0, 2), ['look', 'exclusive'])
  for (let i = 0; i < 100 && looks < 3; i++) await sleep(5)
  assert.equal(looks, 3)
  assert.equal(errors.length, 1)
  await loop.settle()
})
