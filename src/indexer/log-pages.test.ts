import { test } from 'node:test'
import assert from 'node:assert/strict'
import { classifyLogsRefusal, createLogSpan } from './log-pages.ts'

const from = 0x100n
/** As viem throws them: the provider's message in `details`, the short one in `message`. */
const viemError = (details: string, data?: unknown) => Object.assign(new Error(`Request exceeds defined limit.\n\nDetails: ${details}`), { details, cause: { message: details, data } })

test('providers\' eth_getLogs refusals are read with their cap or their suggested range', () => {
  assert.deepEqual(classifyLogsRefusal(viemError('block range too large: at most 500 blocks'), from), { kind: 'range', maxBlocks: 500, suggestedTo: undefined })
  assert.deepEqual(classifyLogsRefusal(viemError('block range too large: the range 256-5000 exceeds 1000 blocks'), from), { kind: 'range', maxBlocks: 1000, suggestedTo: undefined })
  assert.deepEqual(classifyLogsRefusal(viemError('eth_getLogs is limited to a 10,000 range'), from), { kind: 'range', maxBlocks: 10_000, suggestedTo: undefined })
  assert.deepEqual(classifyLogsRefusal(viemError('exceed maximum block range: 50000'), from)?.kind, 'range')
  assert.deepEqual(
    classifyLogsRefusal(viemError('query returned more than 10000 results. Try with this block range [0x100, 0x1ff].', { from: '0x100', to: '0x1ff' }), from),
    { kind: 'results', suggestedTo: 0x1ffn },
  )
  assert.deepEqual(
    classifyLogsRefusal(viemError('Log response size exceeded. You can make eth_getLogs requests with up to a 2K block range and no limit on the response size, or you can request any block range with a cap of 10K logs in the response. Based on your parameters, this block range should work: [0x100, 0x8ff]'), from),
    { kind: 'results', suggestedTo: 0x8ffn },
  )
  // A suggestion that does not start where we asked is of no use.
  assert.deepEqual(classifyLogsRefusal(viemError('query returned more than 10000 results. Try with this block range [0x50, 0x60].'), from), { kind: 'results', suggestedTo: undefined })
  assert.equal(classifyLogsRefusal(viemError('execution reverted'), from), undefined)
  assert.equal(classifyLogsRefusal(new Error('fetch failed'), from), undefined)
})

test('the span learns a range cap for good; after a result refusal it stays at half the refused size, then grows back', () => {
  const span = createLogSpan(2000)
  assert.equal(span.refusedRange(2000, { kind: 'range', maxBlocks: 500 }, from), 500)
  for (let i = 0; i < 5; i++) span.answered()
  assert.equal(span.span(), 500, 'never above the learned cap')
  assert.equal(span.refusedResults(500, { kind: 'results', suggestedTo: from + 49n }, from), 50)
  span.answered()
  assert.equal(span.span(), 100)
  span.answered()
  assert.equal(span.span(), 200)
  span.answered()
  assert.equal(span.span(), 250, 'half the refused size')
  for (let i = 0; i < 5; i++) span.answered()
  assert.equal(span.span(), 500, 'eight pages answered in a row: larger ranges again, up to the cap')
  // A refusal without a number or suggestion halves.
  assert.equal(createLogSpan(64).refusedRange(64, { kind: 'range' }, from), 32)
})
