import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createRpcGate } from './rpc-gate.ts'

const deferred = () => {
  let resolve!: () => void
  const promise = new Promise<void>((r) => (resolve = r))
  return { promise, resolve }
}

test('an exclusive run waits for the shared ones in flight and holds new ones back until it ends', async () => {
  const gate = createRpcGate()
  const events: string[] = []
  const first = deferred()
  const inFlight = gate.shared(async () => {
    events.push('shared 1 starts')
    await first.promise
    events.push('shared 1 ends')
  })
  const exclusive = gate.exclusive(async () => {
    events.push('exclusive runs')
    await new Promise((r) => setTimeout(r, 5))
    events.push('exclusive ends')
    return 42
  })
  const later = gate.shared(async () => events.push('shared 2 runs'))
  await new Promise((r) => setTimeout(r, 5))
  assert.deepEqual(events, ['shared 1 starts'], 'neither the exclusive run nor the later shared one started')
  first.resolve()
  assert.equal(await exclusive, 42)
  await Promise.all([inFlight, later])
  assert.deepEqual(events, ['shared 1 starts', 'shared 1 ends', 'exclusive runs', 'exclusive ends', 'shared 2 runs'])
})

test('exclusive runs queue one behind the other; a failing one releases the gate', async () => {
  const gate = createRpcGate()
  const order: number[] = []
  const a = gate.exclusive(async () => {
    await new Promise((r) => setTimeout(r, 5))
    order.push(1)
    throw new Error('boom')
  })
  const b = gate.exclusive(async () => order.push(2))
  await assert.rejects(a, /boom/)
  await b
  await gate.shared(async () => order.push(3))
  assert.deepEqual(order, [1, 2, 3])
})
