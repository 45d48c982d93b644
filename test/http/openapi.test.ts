import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Validator } from '@seriousme/openapi-schema-validator'
import { useDevnetApp } from '../support/devnet-app.ts'
import { getJson } from '../support/app.ts'
import { operations } from '../../src/operations/index.ts'

const fixture = useDevnetApp()

test('the OpenAPI document validates as OpenAPI 3.1', async () => {
  const { status, body } = await getJson(`${fixture.app.url}/.well-known/openapi.json`)
  assert.equal(status, 200)
  assert.equal(body.openapi, '3.1.0')
  assert.equal(body.info.version, '1.0.0')
  const validator = new Validator()
  const result = await validator.validate(body)
  assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2))
  assert.equal(validator.version, '3.1')
})

test('its paths and methods are exactly the registry routes', async () => {
  const { body } = await getJson(`${fixture.app.url}/.well-known/openapi.json`)
  const documented = Object.entries(body.paths as Record<string, Record<string, { operationId: string }>>)
    .flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => `${method.toUpperCase()} ${path} ${op.operationId}`))
    .sort()
  const registered = operations.map((op) => `${op.method} ${op.path} ${op.id}`).sort()
  assert.deepEqual(documented, registered)
})

test('every route of the registry answers at its documented path, without a server error', async (t) => {
  // Plausible values for path parameters; a 404 for an unknown resource is an answer, a
  // 404 "No route" (not mounted) or any 5xx is a failure.
  const samples: Record<string, string> = {
    burnTxHash: `0x${'ab'.repeat(32)}`,
    tokenId: '1',
    id: '1',
    cid: 'bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku',
    addressOrName: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  }
  const failures: string[] = []
  for (const op of operations) {
    const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
      assert.ok(samples[name], `a sample value for path parameter ${name}`)
      return encodeURIComponent(samples[name]!)
    })
    const controller = new AbortController()
    const response = await fetch(`${fixture.app.url}${path}`, {
      method: op.method,
      signal: controller.signal,
      ...(op.method === 'POST' ? { headers: { 'content-type': 'application/json' }, body: '{}' } : {}),
    })
    const streamed = (response.headers.get('content-type') ?? '').startsWith('text/event-stream')
    const text = streamed ? '' : await response.text()
    controller.abort()
    const label = `${op.method} ${path} -> ${response.status} ${text.slice(0, 300)}`
    t.diagnostic(`${op.method} ${path} -> ${response.status}`)
    if (response.status >= 500) failures.push(label)
    if (response.status === 404 && text.includes('No route')) failures.push(`not mounted: ${label}`)
    if (response.status >= 400 && response.status !== 402) {
      // Every error answers with the JSON error body of DESIGN.md (402 carries the x402 body).
      const body = JSON.parse(text) as { error?: { code?: string; message?: string } }
      assert.match(body.error?.code ?? '', /^[A-Z][A-Z0-9_]*$/, label)
      assert.equal(typeof body.error?.message, 'string', label)
    }
  }
  assert.deepEqual(failures, [])
})
