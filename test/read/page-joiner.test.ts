import { test } from 'node:test'
import assert from 'node:assert/strict'
import { z } from 'zod'
import { createPageJoiner, joinFragments, renderFragment } from '../../src/operations/read/fragments.ts'

const entry = z.object({ id: z.number(), name: z.string() })
const fragment = (id: number, name = `n${id}`) => renderFragment(entry, { id, name }, 'an entry')

test('a page joined again from the same fragments is the same answer, not a new copy', () => {
  const join = createPageJoiner()
  const rows = [fragment(1), fragment(2)]
  const first = join('{"items":[', rows, '],"limit":2}')
  assert.deepEqual(JSON.parse(first.bytes.toString()), { items: [{ id: 1, name: 'n1' }, { id: 2, name: 'n2' }], limit: 2 })
  // The same objects (a new array holding them, as each request makes): the buffer made before.
  const again = join('{"items":[', [...rows], '],"limit":2}')
  assert.equal(again.bytes, first.bytes)
  assert.equal(again.etag, first.etag)
  assert.deepEqual(first, joinFragments('{"items":[', rows, '],"limit":2}'))
})

test('a page whose entries changed is joined again at once: nothing it returns is stale', () => {
  const join = createPageJoiner()
  const rows = [fragment(1), fragment(2)]
  const before = join('{"items":[', rows, ']}')
  // A row replaced by an equal-looking new object with other content (a row renewed).
  const after = join('{"items":[', [fragment(3), ...rows], ']}')
  assert.deepEqual(JSON.parse(after.bytes.toString()).items.map((i: { id: number }) => i.id), [3, 1, 2])
  assert.notEqual(after.etag, before.etag)
  const renamed = join('{"items":[', [fragment(3, 'renamed'), ...rows], ']}')
  assert.equal(JSON.parse(renamed.bytes.toString()).items[0].name, 'renamed')
  assert.notEqual(renamed.etag, after.etag)
  // Another page (another head or tail) is kept apart from the first.
  const other = join('{"items":[', rows, '],"offset":5}')
  assert.deepEqual(JSON.parse(other.bytes.toString()), { items: [{ id: 1, name: 'n1' }, { id: 2, name: 'n2' }], offset: 5 })
})

test('held pages are bounded: past the bound they are joined afresh, still right', () => {
  const join = createPageJoiner(2)
  const rows = [fragment(1)]
  const first = join('[', rows, ']')
  join('[', rows, '],1')
  join('[', rows, '],2') // the third page empties what was held
  const again = join('[', rows, ']')
  assert.notEqual(again.bytes, first.bytes)
  assert.deepEqual(again.bytes, first.bytes)
})
