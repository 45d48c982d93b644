import { test } from 'node:test'
import assert from 'node:assert/strict'
import { coalesce, coalescePer } from './coalesce.ts'

test('calls of one tick share a run; calls made during a run share the next one; each gets its own result', async () => {
  const runs: number[][] = []
  let release!: () => void
  const gate = new Promise<void>((r) => (release = r))
  const double = coalesce(async (items: number[]) => {
    runs.push(items)
    if (runs.length === 1) await gate
    return items.map((i) => i * 2)
  })
  const first = [double(1), double(2)]
  await new Promise((r) => setImmediate(r))
  const second = [double(3), double(4), double(5)]
  release()
  assert.deepEqual(await Promise.all([...first, ...second]), [2, 4, 6, 8, 10])
  assert.deepEqual(runs, [[1, 2], [3, 4, 5]])
})

test('a failed run rejects every call it served, and the next run goes on', async () => {
  const run = coalesce(async (items: string[]) => {
    if (items.includes('bad')) throw new Error('boom')
    return items.map((i) => i.toUpperCase())
  })
  const failed = await Promise.allSettled([run('ok'), run('bad')])
  assert.deepEqual(failed.map((f) => f.status), ['rejected', 'rejected'])
  assert.equal(await run('fine'), 'FINE')
})

test('coalescePer: calls on one owner share runs, calls on another owner never join them', async () => {
  const runs: Array<[string, number[]]> = []
  const sum = coalescePer(async (owner: { name: string }, items: number[]) => {
    runs.push([owner.name, items])
    return items.map((i) => i + items.length)
  })
  const a = { name: 'a' }
  const b = { name: 'b' }
  assert.deepEqual(await Promise.all([sum(a, 1), sum(b, 10), sum(a, 2)]), [3, 11, 4])
  assert.deepEqual(runs, [['a', [1, 2]], ['b', [10]]])
})
