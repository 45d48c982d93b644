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

test('the refiner calls an OpenAI-compatible server and falls back on any failure', async () => {
  const { startFakeApi } = await import('../../test/support/fake-http.ts')
  const { createLlmRefiner } = await import('./llm.ts')
  let reply: { status: number; body?: unknown } = { status: 200, body: { choices: [{ message: { content: '{"intent":"gallery"}' } }] } }
  const server = await startFakeApi(async () => reply)
  try {
    // A generous bound: this is about what is sent and parsed, not speed (2 s failed once in CI
    // on a loaded machine, the refiner then rightly falling back to undefined).
    const refiner = createLlmRefiner({ url: `${server.url}/v1/`, apiKey: 'k', model: 'm', timeoutMs: 30_000 })
    assert.equal(await refiner.refine('show pics', ['gallery', 'looksmaxx']), 'gallery')
    const sent = JSON.parse(server.requests[0]!.body.toString())
    assert.equal(server.requests[0]!.url, '/v1/chat/completions')
    assert.equal(sent.model, 'm')
    assert.equal(sent.messages[0].role, 'system')
    reply = { status: 503, body: { error: 'busy' } }
    assert.equal(await refiner.refine('show pics', []), undefined)
    reply = { status: 200, body: { choices: [] } }
    assert.equal(await refiner.refine('show pics', []), undefined)
    const unreachable = createLlmRefiner({ url: 'http://127.0.0.1:1', model: 'm', timeoutMs: 500 })
    assert.equal(await unreachable.refine('x', []), undefined)
  } finally {
    await server.close()
  }
})
