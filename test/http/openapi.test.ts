import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Validator } from '@seriousme/openapi-schema-validator'
import { useApp } from '../support/harness.ts'
import { operations } from '../../src/operations/index.ts'
import { buildOpenApi } from '../../src/operations/runtime/openapi.ts'
import { isRateLimited } from '../../src/operations/runtime/limits.ts'
import { loadConfig } from '../../src/config/load.ts'

const app = useApp()

test('the OpenAPI document validates as OpenAPI 3.1', async () => {
  const { status, body } = await app.get(`/.well-known/openapi.json`)
  assert.equal(status, 200)
  assert.equal(body.openapi, '3.1.0')
  assert.equal(body.info.version, '1.0.0')
  const validator = new Validator()
  const result = await validator.validate(body)
  assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2))
  assert.equal(validator.version, '3.1')
})

test('the refusals made before a handler are documented where they happen: 429 by limit class, 413 and 415 on bodies', async () => {
  // Under the default limits: a write and an expensive read are limited, a cached read is not.
  const defaults = loadConfig({})
  const body = buildOpenApi(operations, { baseUrl: 'http://127.0.0.1:3000', rateLimited: (op) => isRateLimited(defaults, op) }) as any
  const statuses = (path: string, method: string) => Object.keys(body.paths[path][method].responses)
  for (const [path, method] of [['/api/agent/register', 'post'], ['/api/agent/chat', 'post'], ['/api/wallet', 'get'], ['/api/x402/quote', 'get']] as const) {
    assert.ok(statuses(path, method).includes('429'), `${method} ${path} documents 429`)
    assert.deepEqual(Object.keys(body.paths[path][method].responses['429'].headers).sort(), ['Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining'])
  }
  assert.ok(!statuses('/api/gallery', 'get').includes('429'))
  for (const [path, method] of [['/api/agent/register', 'post'], ['/api/gasless/burn', 'post'], ['/api/x402/looksmaxx', 'post']] as const) {
    assert.ok(statuses(path, method).includes('413') && statuses(path, method).includes('415'), `${method} ${path} documents 413 and 415`)
  }
  assert.ok(!statuses('/api/wallet', 'get').includes('415'))
  // The served document follows the configuration: this test app runs with the limits off.
  const served = (await app.get(`/.well-known/openapi.json`)).body
  assert.ok(!Object.keys(served.paths['/api/agent/register'].post.responses).includes('429'))
  assert.ok(Object.keys(served.paths['/api/agent/register'].post.responses).includes('415'))
  // What is documented happens: a body that is not JSON.
  const refused = await fetch(`${app.url}/api/agent/register`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hello' })
  assert.equal(refused.status, 415)
  assert.equal(((await refused.json()) as { error: { code: string } }).error.code, 'UNSUPPORTED_MEDIA_TYPE')
})

test('its paths and methods are exactly the registry routes plus the MCP transport', async () => {
  const { body } = await app.get(`/.well-known/openapi.json`)
  const documented = Object.entries(body.paths as Record<string, Record<string, { operationId: string }>>)
    .flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => `${method.toUpperCase()} ${path} ${op.operationId}`))
    .sort()
  const registered = operations.map((op) => `${op.method} ${op.path} ${op.id}`)
  const mcp = ['POST /api/mcp mcp', 'GET /api/mcp mcp_get', 'DELETE /api/mcp mcp_delete']
  assert.deepEqual(documented, [...registered, ...mcp].sort())
})

/** A header value's schema: x402 headers are standard base64 of a JSON document. */
function assertBase64Json(header: { schema?: Record<string, unknown> } | undefined, label: string) {
  assert.ok(header, `${label} is documented`)
  assert.equal(header.schema?.type, 'string', label)
  assert.equal(header.schema?.contentEncoding, 'base64', label)
  assert.equal(header.schema?.contentMediaType, 'application/json', label)
}

/** Header objects keyed by upper-cased name (HTTP header names are case-insensitive). */
function byName(headers: Record<string, unknown> | undefined): Record<string, { schema?: Record<string, any> }> {
  return Object.fromEntries(Object.entries(headers ?? {}).map(([name, value]) => [name.toUpperCase(), value as { schema?: Record<string, any> }]))
}

test('the MCP endpoint is documented: JSON-RPC 2.0 over POST, protocol and session headers, GET/DELETE 405', async () => {
  // Expectations from the spec ("MCP server at /api/mcp (32 tools)") and the MCP Streamable
  // HTTP transport: a server without a server-to-client stream answers GET with 405, and a
  // stateless one (no sessions) DELETE too.
  const { body } = await app.get(`/.well-known/openapi.json`)
  const item = body.paths['/api/mcp']
  assert.ok(item?.post, 'POST /api/mcp is documented')
  assert.match(item.post.summary, /\b32 tools\b/)
  const schema = item.post.requestBody?.content?.['application/json']?.schema
  assert.ok(schema, 'a JSON request body')
  const resolve = (s: { $ref?: string }) => (s.$ref ? body.components.schemas[s.$ref.split('/').at(-1)!] : s)
  assert.deepEqual(resolve(schema).properties.jsonrpc, { const: '2.0' }, 'the body is JSON-RPC 2.0')
  const headerNames = (item.post.parameters ?? []).filter((p: { in: string }) => p.in === 'header').map((p: { name: string }) => p.name.toLowerCase())
  assert.ok(headerNames.includes('mcp-session-id'), 'Mcp-Session-Id is documented')
  assert.ok(headerNames.includes('mcp-protocol-version'), 'MCP-Protocol-Version is documented')
  for (const status of ['200', '202', '400', '406', '415']) assert.ok(item.post.responses[status], `POST /api/mcp documents ${status}`)
  const error = resolve(item.post.responses['400'].content['application/json'].schema)
  assert.deepEqual(error.properties.error.required, ['code', 'message'], 'errors are JSON-RPC error objects')
  for (const method of ['get', 'delete']) assert.ok(item[method]?.responses?.['405'], `${method.toUpperCase()} /api/mcp documents 405`)
  // The server answers as documented.
  const get = await fetch(`${app.url}/api/mcp`, { headers: { accept: 'text/event-stream' } })
  assert.equal(get.status, 405)
  assert.equal(((await get.json()) as { jsonrpc?: string }).jsonrpc, '2.0')
  const notJson = await fetch(`${app.url}/api/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: '{}' })
  assert.ok(item.post.responses[String(notJson.status)], `POST /api/mcp answered ${notJson.status}, which is documented`)
})

test('x402 v1 and v2 headers of the paid looksmaxx are documented (v1 X-PAYMENT / X-PAYMENT-RESPONSE, v2 PAYMENT-SIGNATURE / PAYMENT-REQUIRED / PAYMENT-RESPONSE)', async () => {
  const { body } = await app.get(`/.well-known/openapi.json`)
  const post = body.paths['/api/x402/looksmaxx'].post
  const requestHeaders = Object.fromEntries(
    (post.parameters ?? []).filter((p: { in: string }) => p.in === 'header').map((p: { name: string }) => [p.name.toUpperCase(), p]),
  )
  // The client re-sends the request with its payment: X-PAYMENT (v1) or PAYMENT-SIGNATURE (v2).
  assertBase64Json(requestHeaders['X-PAYMENT'], 'request header X-PAYMENT')
  assertBase64Json(requestHeaders['PAYMENT-SIGNATURE'], 'request header PAYMENT-SIGNATURE')
  // v2 payloads carry the optional payment-identifier extension (idempotency) under extensions.
  const v2Payload = requestHeaders['PAYMENT-SIGNATURE'].schema.contentSchema
  assert.equal(v2Payload.properties.x402Version.const, 2)
  assert.ok(v2Payload.properties.accepted, 'a v2 payload names the accepted requirements')
  assert.ok(v2Payload.properties.extensions.properties['payment-identifier'], 'the payment-identifier extension is documented')
  assert.ok(post.responses['409'], 'a payment identifier reused with another payload is 409')
  // 402: the v2 PaymentRequired in PAYMENT-REQUIRED, besides the spec's X-Payment-Required / X-402-Version.
  for (const method of ['get', 'post']) {
    const headers = byName(body.paths['/api/x402/looksmaxx'][method].responses['402'].headers)
    assertBase64Json(headers['PAYMENT-REQUIRED'], `${method.toUpperCase()} 402 PAYMENT-REQUIRED`)
    const required = headers['PAYMENT-REQUIRED']!.schema!.contentSchema
    assert.equal(required.properties.x402Version.const, 2)
    assert.ok(required.properties.accepts, 'PaymentRequired lists accepts')
    assert.ok(headers['X-PAYMENT-REQUIRED'], `${method.toUpperCase()} 402 X-Payment-Required`)
    assert.ok(headers['X-402-VERSION'], `${method.toUpperCase()} 402 X-402-Version`)
  }
  // 200: the settlement, PAYMENT-RESPONSE (v2) or X-PAYMENT-RESPONSE (v1): {success, transaction, network, payer}.
  const paid = byName(post.responses['200'].headers)
  for (const name of ['PAYMENT-RESPONSE', 'X-PAYMENT-RESPONSE']) {
    assertBase64Json(paid[name], `200 ${name}`)
    const settlement = paid[name]!.schema!.contentSchema
    for (const field of ['success', 'transaction', 'network', 'payer']) assert.ok(settlement.properties[field], `${name} has ${field}`)
  }
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
    const response = await fetch(`${app.url}${path}`, {
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
      // Every error answers with the JSON error body { error: { code, message } } (402 carries the x402 body).
      const body = JSON.parse(text) as { error?: { code?: string; message?: string } }
      assert.match(body.error?.code ?? '', /^[A-Z][A-Z0-9_]*$/, label)
      assert.equal(typeof body.error?.message, 'string', label)
    }
  }
  assert.deepEqual(failures, [])
})
