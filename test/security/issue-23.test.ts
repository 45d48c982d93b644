import { test, describe } from 'node:test'
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { useApp, type TestApp } from '../support/harness.ts'
import { loadConfig } from '../../src/config/load.ts'
import { clientKeyOf } from '../../src/operations/runtime/limits.ts'
import { createServing } from '../../src/operations/runtime/serve.ts'
import { createLimits } from '../../src/operations/runtime/limits.ts'
import { getWallet } from '../../src/operations/wallet/get-wallet.ts'

/**
 * Issue 23, "Security, second probe": each item the probe reproduced, refused or bounded, with
 * the honest client's request still served. (The chat's recipients and the event stream's caps
 * have suites of their own: test/chat, test/events.)
 */
const app = useApp({
  env: {
    RATE_LIMIT_WRITES_PER_MINUTE: '1000',
    RATE_LIMIT_WALLET_WRITES_PER_MINUTE: '2',
    RATE_LIMIT_EXPENSIVE_PER_MINUTE: '1000',
    RATE_LIMIT_WALLET_EXPENSIVE_PER_MINUTE: '1000',
    RATE_LIMIT_WINDOW_SECONDS: '5',
    ALLOWED_HOSTS: 'api.example.org',
    TRUST_PROXY: '1',
  },
})

let nextClient = 1
const clientIp = () => `198.51.100.${nextClient++}`
const wallet = () => `0x${randomBytes(20).toString('hex')}`

/** One JSON-RPC message to /api/mcp, from a client address of the test's choosing. */
async function mcp(body: unknown, options: { ip?: string; headers?: Record<string, string> } = {}) {
  const response = await app.http.inject({
    method: 'POST',
    url: '/api/mcp',
    payload: JSON.stringify(body),
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...options.headers },
    remoteAddress: options.ip ?? clientIp(),
  })
  return { status: response.statusCode, body: response.body ? JSON.parse(response.body) : undefined, headers: response.headers }
}
const toolCall = (id: number, name: string, args: Record<string, unknown>) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } })
/** A relay of a burn with a well-formed but worthless signature: refused by the handler, counted by the limits. */
const relayArgs = (burner: string) => ({ burner, deadline: 4_000_000_000, signature: `0x${'11'.repeat(65)}` })
const toolError = (result: any) => JSON.parse(result.content[0].text).error

describe('MCP: every tool call counts as its operation', () => {
  test('a JSON-RPC batch is refused whole (-32600) and runs none of its calls', async () => {
    const burner = wallet()
    const batch = Array.from({ length: 100 }, (_, i) => toolCall(i + 1, 'relay_gasless_burn', relayArgs(burner)))
    const refused = await mcp(batch)
    assert.equal(refused.status, 400)
    assert.equal(refused.body.error.code, -32600)
    assert.match(refused.body.error.message, /batch/i)
    // Nothing of the batch was counted: the wallet still has its two writes of the window.
    for (let i = 0; i < 2; i++) {
      const one = await mcp(toolCall(1, 'relay_gasless_burn', relayArgs(burner)))
      assert.equal(one.status, 200)
      assert.notEqual(toolError(one.body.result).code, 'RATE_LIMITED')
    }
  })

  test('a write tool over the per-wallet limit is a tool error naming the limit and the retry; it succeeds after the window', async () => {
    const burner = wallet()
    // From three client addresses: the wallet is counted, whoever sends.
    for (let i = 0; i < 2; i++) assert.notEqual(toolError((await mcp(toolCall(i, 'relay_gasless_burn', relayArgs(burner)))).body.result).code, 'RATE_LIMITED')
    const limited = (await mcp(toolCall(3, 'relay_gasless_burn', relayArgs(burner)))).body.result
    assert.equal(limited.isError, true)
    const error = toolError(limited)
    assert.equal(error.code, 'RATE_LIMITED')
    // The same HTTP route counts in the same window; another wallet is served meanwhile.
    const viaHttp = await app.http.inject({ method: 'POST', url: '/api/gasless/burn', payload: relayArgs(burner), remoteAddress: clientIp() })
    assert.equal(viaHttp.statusCode, 429, 'HTTP and MCP share the wallet count')
    assert.match(error.message, /at most 2 per 5 s\. Retry in \d+ s\./)
    assert.equal(error.details.scope, 'wallet')
    assert.equal(error.details.class, 'write')
    assert.ok(error.details.retryAfterSeconds >= 1 && error.details.retryAfterSeconds <= 5)
    assert.notEqual(toolError((await mcp(toolCall(4, 'relay_gasless_burn', relayArgs(wallet())))).body.result).code, 'RATE_LIMITED')
    await new Promise((resolve) => setTimeout(resolve, error.details.retryAfterSeconds * 1000 + 100))
    assert.notEqual(toolError((await mcp(toolCall(5, 'relay_gasless_burn', relayArgs(burner)))).body.result).code, 'RATE_LIMITED')
  })

  test('a read tool is not counted as a write', async () => {
    for (let i = 0; i < 5; i++) {
      const result = (await mcp(toolCall(i, 'get_price', {}))).body.result
      assert.notEqual(result.isError, true, JSON.stringify(result))
    }
  })
})

describe('TRUST_PROXY is a hop count, not "trust everything"', () => {
  test('true is refused at start-up, naming the fix', () => {
    assert.throws(() => loadConfig({ TRUST_PROXY: 'true' }), /TRUST_PROXY.*number of proxies/s)
    assert.equal(loadConfig({ TRUST_PROXY: '1' }).TRUST_PROXY, 1)
    assert.equal(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.1' }).TRUST_PROXY, '10.0.0.0/8,192.168.1.1')
    assert.equal(loadConfig({}).TRUST_PROXY, false)
    assert.throws(() => loadConfig({ TRUST_PROXY: 'proxy.example' }), /TRUST_PROXY/)
  })

  test('with one proxy, a client that writes its own X-Forwarded-For entries is still counted under its own address', async () => {
    const proxy = '10.1.2.3'
    const send = (forwardedFor: string) =>
      app.http.inject({ method: 'POST', url: '/api/gasless/burn', payload: relayArgs(wallet()), remoteAddress: proxy, headers: { 'x-forwarded-for': forwardedFor } })
    // The load balancer appends the address it saw: the right-most entry. The client rotates the rest.
    const realClient = clientIp()
    const remaining = []
    for (let i = 0; i < 3; i++) remaining.push(Number((await send(`203.0.113.${i + 1}, ${realClient}`)).headers['x-ratelimit-remaining']))
    assert.deepEqual(remaining, [remaining[0], remaining[0]! - 1, remaining[0]! - 2], 'one count, whatever the forged entries')
    // Another real client behind the same proxy has a count of its own.
    assert.equal(Number((await send(`203.0.113.1, ${clientIp()}`)).headers['x-ratelimit-remaining']), remaining[0])
  })

  test('a hop count believes only proxies on a private network: a client on the internet cannot forge hops', async () => {
    const direct = (forwardedFor: string) =>
      app.http.inject({ method: 'POST', url: '/api/gasless/burn', payload: relayArgs(wallet()), remoteAddress: '192.0.2.77', headers: { 'x-forwarded-for': forwardedFor } })
    const remaining = []
    for (let i = 0; i < 3; i++) remaining.push(Number((await direct(`203.0.113.${i + 50}`)).headers['x-ratelimit-remaining']))
    assert.deepEqual(remaining, [remaining[0], remaining[0]! - 1, remaining[0]! - 2], 'counted under its own address')
  })
})

describe('DNS rebinding: writes, MCP and /metrics answer only for known hosts', () => {
  const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'probe', version: '1' } } }

  test('the conformance scenario: a foreign Host and Origin get 403, localhost is served', async () => {
    const evil = await mcp(initialize, { headers: { host: 'evil.example', origin: 'http://evil.example' } })
    assert.equal(evil.status, 403)
    assert.equal(evil.body.error.code, 'FORBIDDEN_HOST')
    for (const host of ['localhost:3000', '127.0.0.1:3000', '[::1]:3000', 'api.example.org']) {
      const ok = await mcp(initialize, { headers: { host, origin: `http://${host}` } })
      assert.equal(ok.status, 200, host)
    }
  })

  test('a write from a rebinding page is refused before it is read; reads stay public', async () => {
    const write = await app.http.inject({ method: 'POST', url: '/api/agent/chat', payload: { message: 'price' }, headers: { host: 'evil.example:3000' } })
    assert.equal(write.statusCode, 403)
    assert.equal(write.json().error.code, 'FORBIDDEN_HOST')
    const read = await app.http.inject({ method: 'GET', url: '/api/price', headers: { host: 'evil.example:3000' } })
    assert.equal(read.statusCode, 200)
    const honest = await app.http.inject({ method: 'POST', url: '/api/agent/chat', payload: { message: 'price' }, headers: { origin: 'https://agent.example' } })
    assert.equal(honest.statusCode, 200, 'another site may call the public API (CORS_ORIGINS=*)')
  })

  test('/metrics: host-checked, no CORS headers, private networks only without a token', async () => {
    const fromPage = await app.http.inject({ method: 'GET', url: '/metrics', headers: { origin: 'https://page.example' }, remoteAddress: '10.0.0.9' })
    assert.equal(fromPage.statusCode, 200)
    assert.equal(fromPage.headers['access-control-allow-origin'], undefined)
    const rebound = await app.http.inject({ method: 'GET', url: '/metrics', headers: { host: 'evil.example' }, remoteAddress: '127.0.0.1' })
    assert.equal(rebound.statusCode, 403)
    const publicClient = await app.http.inject({ method: 'GET', url: '/metrics', remoteAddress: '10.9.9.9', headers: { 'x-forwarded-for': '8.8.8.8' } })
    assert.equal(publicClient.statusCode, 401)
    assert.equal(publicClient.json().error.code, 'UNAUTHORIZED')
  })
})

describe('Low items', () => {
  test('the zero address is a clear 400 on every read that takes a wallet, not a 502', async () => {
    const zero = '0x0000000000000000000000000000000000000000'
    for (const url of [
      `/api/wallet?address=${zero}`,
      `/api/identity/${zero}`,
      `/api/agent/looksmaxx?wallet=${zero}`,
      `/api/defi/nft?address=${zero}`,
      `/api/defi/staking?address=${zero}`,
      `/api/cross-chain/intent?sourceChain=base&wallet=${zero}`,
    ]) {
      const response = await app.get(url)
      assert.equal(response.status, 400, `${url}: ${response.text}`)
      assert.match(response.body.error.message, /zero address/, url)
    }
    const honest = await app.get(`/api/wallet?address=${app.devnet.info.accounts.demoHolder}`)
    assert.equal(honest.status, 200)
  })

  test('links stored to be shown later are http(s) only', async () => {
    for (const [url, body] of [
      ['/api/early/register', { wallet: wallet(), tweetUrl: 'javascript:alert(1)', issuedAt: 1, signature: `0x${'11'.repeat(65)}` }],
      ['/api/early/register', { wallet: wallet(), tweetUrl: 'data:text/html,<script>alert(1)</script>', issuedAt: 1, signature: `0x${'11'.repeat(65)}` }],
      ['/api/agent/register', { wallet: wallet(), mcpEndpoint: 'javascript:alert(1)', issuedAt: 1, signature: `0x${'11'.repeat(65)}` }],
    ] as const) {
      const response = await app.post(url, body)
      assert.equal(response.status, 400, `${url}: ${response.text}`)
      assert.match(response.body.error.message, /http\(s\) URL/)
    }
  })

  test('security headers on every kind of answer', async () => {
    const { cid } = await app.ctx.pipeline.deps.ipfs.add(Buffer.from('hello'), { name: 'hello.txt', mimeType: 'text/plain' })
    for (const url of ['/terms', '/privacy', '/agent-image.svg', '/api/price', '/api/nope', `/ipfs/${cid}`]) {
      const response = await app.get(url)
      assert.equal(response.headers.get('x-content-type-options'), 'nosniff', url)
      assert.ok(response.headers.get('referrer-policy'), url)
      assert.match(response.headers.get('content-security-policy') ?? '', /default-src 'none'/, url)
      assert.match(response.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/, url)
    }
    assert.match((await app.get('/terms')).headers.get('content-security-policy')!, /style-src 'sha256-/, 'the legal pages allow their own style only')
  })

  test('IPv6 clients are counted by their /64', () => {
    assert.equal(clientKeyOf('2001:db8:1:2:aaaa::1'), clientKeyOf('2001:db8:1:2:ffff:ffff:ffff:ffff'))
    assert.notEqual(clientKeyOf('2001:db8:1:2::1'), clientKeyOf('2001:db8:1:3::1'))
    assert.equal(clientKeyOf('2001:0db8:0001:0002::1'), '2001:db8:1:2::/64')
    assert.equal(clientKeyOf('::ffff:192.0.2.1'), '192.0.2.1')
    assert.equal(clientKeyOf('192.0.2.1'), '192.0.2.1')
    assert.equal(clientKeyOf('::1'), '0:0:0:0::/64')
  })

  test('IPv6 addresses inside one /64 share a write count over HTTP', async () => {
    const prefix = `2001:db8:${randomBytes(2).toString('hex')}:1`
    const remaining = []
    for (let i = 1; i <= 3; i++) {
      const response = await app.http.inject({ method: 'POST', url: '/api/gasless/burn', payload: relayArgs(wallet()), remoteAddress: `${prefix}::${i}` })
      remaining.push(Number(response.headers['x-ratelimit-remaining']))
    }
    assert.deepEqual(remaining, [remaining[0], remaining[0]! - 1, remaining[0]! - 2])
  })

  test('the parse memo of a GET keeps a bounded number of characters whatever the query strings', () => {
    const serving = createServing(app.ctx, createLimits(app.ctx.config)).of(getWallet)
    const holder = app.devnet.info.accounts.demoHolder
    for (let i = 0; i < 5000; i++) serving.parse({ address: holder }, `/api/wallet?address=${holder}&junk${i}=${'x'.repeat(400)}`)
    assert.ok(serving.memoChars() <= 256 * 1024, `${serving.memoChars()} characters kept`)
    serving.parse({ address: holder }, `/api/wallet?address=${holder}&${'y'.repeat(5000)}`)
    assert.ok(serving.memoChars() <= 256 * 1024)
  })
})

export type { TestApp }
