import { test } from 'node:test'
import assert from 'node:assert/strict'
import { parseIntent } from './llm.ts'

test('a model reply is accepted only when it names one of the intents', () => {
  assert.equal(parseIntent('{"intent": "price"}'), 'price')
  assert.equal(parseIntent('Sure! ```json\n{"intent":"stake"}\n```'), 'stake')
  assert.equal(parseIntent('gallery'), 'gallery')
  assert.equal(parseIntent('{"intent": "unclear"}'), 'unclear')
  assert.equal(parseIntent('{"intent": "drain_wallet"}'), undefined)
  assert.equal(parseIntent('{"intent": 3}'), undefined)
  assert.equal(parseIntent('I think you want the price'), undefined)
})
