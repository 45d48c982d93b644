import { test, before, describe } from 'node:test'
import assert from 'node:assert/strict'
import { getAddress } from 'viem'
import { randomBytes } from 'node:crypto'
import { useApp, type TestApp } from '../support/harness.ts'
import { TEST_REDIS_URL, needsRedis } from '../support/env.ts'

// Two instances of the service on one devnet and, when there is one, one Redis: what a client
// does on one instance counts on the other. Each test uses client addresses of its own.
let two: TestApp
const env = {
  RATE_LIMIT_WRITES_PER_MINUTE: '4',
  RATE_LIMIT_WALLET_WRITES_PER_MINUTE: '2',
  RATE_LIMIT_EXPENSIVE_PER_MINUTE: '3',
  RATE_LIMIT_WALLET_EXPENSIVE_PER_MINUTE: '2',
  ...(TEST_REDIS_URL ? { REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: `ops-abuse-${randomBytes(4).toString('hex')}` } : {}),
}
const one = useApp({ env })
before(async () => {
  two = await one.another({ env })
})

let nextIp = 1
/** A client address no other test uses. */
const clientIp = () => `203.0.113.${nextIp++}`

const post = (app: TestApp, url: string, body: unknown, ip: string, headers: Record<string, string> = {}) =>
  app.http.inject({ method: 'POST', url, payload: JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers }, remoteAddress: ip })

describe('rate limits', () => {
  test('writes per client address: the fifth within a minute gets 429 RATE_LIMITED with Retry-After, across two instances', { skip: needsRedis }, async () => {
    const ip = clientIp()
    // Invalid wallets: the limit counts every write, answered or refused, so a flood stays cheap.
    const statuses = []
    for (const app of [one, two, one, two]) statuses.push((await post(app, '/api/early/register', { wallet: 'nope' }, ip)).statusCode)
    assert.deepEqual(statuses, [400, 400, 400, 400])
    const refused = await post(two, '/api/early/register', { wallet: 'nope' }, ip)
    assert.equal(refused.statusCode, 429)
    const retryAfter = Number(refused.headers['retry-after'])
    assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${refused.headers['retry-after']}`)
    const body = refused.json()
    assert.equal(body.error.code, 'RATE_LIMITED')
    assert.match(body.error.message, /at most 4 per minute/)
    assert.deepEqual(body.error.details, { retryAfterSeconds: retryAfter, limit: 4, windowSeconds: 60, scope: 'ip', class: 'write' })
    assert.equal((await post(one, '/api/early/register', { wallet: 'nope' }, ip)).statusCode, 429, 'the other instance agrees')
    // Another client is not affected, and reads are not writes.
    assert.equal((await post(one, '/api/early/register', { wallet: 'nope' }, clientIp())).statusCode, 400)
    assert.equal((await one.http.inject({ method: 'GET', url: '/api/bridge', remoteAddress: ip })).statusCode, 200)
  })

  test('per wallet: the third request for one wallet gets 429 even from other addresses and instances; other wallets go on', async () => {
    const wallet = `0x${randomBytes(20).toString('hex')}`
    const other = `0x${randomBytes(20).toString('hex')}`
    const read = (app: TestApp, w: string) => app.http.inject({ method: 'GET', url: `/api/wallet?address=${w}`, remoteAddress: clientIp() })
    assert.equal((await read(one, wallet)).statusCode, 200)
    assert.equal((await read(TEST_REDIS_URL ? two : one, wallet.toUpperCase().replace('0X', '0x'))).statusCode, 200, 'any spelling of the wallet counts')
    const refused = await read(one, wallet)
    assert.equal(refused.statusCode, 429)
    assert.equal(refused.json().error.code, 'RATE_LIMITED')
    assert.deepEqual([refused.json().error.details.scope, refused.json().error.details.class], ['wallet', 'expensive'])
    assert.ok(refused.json().error.message.includes(`wallet ${getAddress(wallet)}`), 'the wallet is named as EIP-55 writes it')
    assert.ok(Number(refused.headers['retry-after']) >= 1)
    assert.equal((await read(one, other)).statusCode, 200)
  })

  test('expensive reads per client address; cached public reads are not limited', async () => {
    const ip = clientIp()
    const wallet = (n: number) => `/api/wallet?address=0x${String(n).padStart(40, '7')}`
    for (let i = 0; i < 3; i++) {
      const response = await one.http.inject({ method: 'GET', url: wallet(i), remoteAddress: ip })
      assert.equal(response.statusCode, 200, response.body)
    }
    const refused = await one.http.inject({ method: 'GET', url: wallet(4), remoteAddress: ip })
    assert.equal(refused.statusCode, 429)
    assert.equal(refused.json().error.details.class, 'expensive')
    for (let i = 0; i < 10; i++) assert.equal((await one.http.inject({ method: 'GET', url: '/api/stats', remoteAddress: ip })).statusCode, 200)
  })

  test('the operator endpoints are never limited', async () => {
    const ip = clientIp()
    for (let i = 0; i < 10; i++) assert.equal((await one.http.inject({ method: 'GET', url: '/healthz', remoteAddress: ip })).statusCode, 200)
  })
})

describe('bodies', () => {
  test('a POST whose body is not JSON gets 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const response = await one.http.inject({ method: 'POST', url: '/api/agent/chat', payload: 'message=hello', headers: { 'content-type': contentType }, remoteAddress: clientIp() })
      assert.equal(response.statusCode, 415, contentType)
      const body = response.json()
      assert.equal(body.error.code, 'UNSUPPORTED_MEDIA_TYPE')
      assert.equal(body.error.details.expected, 'application/json')
    }
    const missing = await one.http.inject({ method: 'POST', url: '/api/agent/chat', payload: 'hello', headers: { 'content-type': '' }, remoteAddress: clientIp() })
    assert.equal(missing.statusCode, 415)
    const json = await post(one, '/api/agent/chat', { message: 'price' }, clientIp(), { 'content-type': 'application/json; charset=utf-8' })
    assert.equal(json.statusCode, 200)
  })

  test('a body over the route limit gets 413 PAYLOAD_TOO_LARGE; a portrait upload may be larger', async () => {
    const big = { message: 'x'.repeat(100 * 1024) }
    const refused = await post(one, '/api/agent/chat', big, clientIp())
    assert.equal(refused.statusCode, 413)
    assert.equal(refused.json().error.code, 'PAYLOAD_TOO_LARGE')
    // 1 MB of portrait is read and judged on its merits (here: not an image), not refused for size.
    const portrait = await post(one, '/api/generate', { burnTxHash: `0x${'1'.repeat(64)}`, devTxHash: `0x${'2'.repeat(64)}`, burnerAddress: `0x${'3'.repeat(40)}`, image: 'A'.repeat(1024 * 1024) }, clientIp())
    assert.equal(portrait.statusCode, 400, portrait.body.slice(0, 300))
    const tooBig = await post(one, '/api/generate', { image: 'A'.repeat(8 * 1024 * 1024) }, clientIp())
    assert.equal(tooBig.statusCode, 413)
    assert.equal(tooBig.json().error.code, 'PAYLOAD_TOO_LARGE')
  })
})

describe('CORS', () => {
  test('a preflight for a paid write allows any origin, POST and the X-PAYMENT header, without credentials', async () => {
    const response = await fetch(`${one.url}/api/x402/looksmaxx`, {
      method: 'OPTIONS',
      headers: { origin: 'https://agent.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, x-payment' },
    })
    assert.equal(response.status, 204)
    assert.equal(response.headers.get('access-control-allow-origin'), '*')
    assert.match(response.headers.get('access-control-allow-methods')!, /POST/)
    assert.match(response.headers.get('access-control-allow-headers')!, /X-PAYMENT/)
    assert.equal(response.headers.get('access-control-max-age'), '86400')
    assert.equal(response.headers.get('access-control-allow-credentials'), null)
  })

  test('answers carry the origin rule and expose the headers clients read', async () => {
    const response = await fetch(`${one.url}/api/x402/looksmaxx`, { headers: { origin: 'https://agent.example' } })
    assert.equal(response.status, 402)
    assert.equal(response.headers.get('access-control-allow-origin'), '*')
    const exposed = response.headers.get('access-control-expose-headers')!
    for (const name of ['X-Payment-Required', 'X-Request-Id', 'Retry-After', 'X-Block-Number']) assert.match(exposed, new RegExp(name))
    await response.body?.cancel()
  })

  test('an answer to a request without an Origin (an agent, a server) carries no CORS headers and varies on Origin', async () => {
    const plain = await fetch(`${one.url}/api/gallery`)
    assert.equal(plain.status, 200)
    assert.equal(plain.headers.get('access-control-allow-origin'), null)
    assert.equal(plain.headers.get('access-control-expose-headers'), null)
    // A shared cache must not hand this answer to a browser: Vary names Origin.
    assert.ok(plain.headers.get('vary')!.toLowerCase().split(/\s*,\s*/).includes('origin'), plain.headers.get('vary')!)
    const fromPage = await fetch(`${one.url}/api/gallery`, { headers: { origin: 'https://page.example' } })
    assert.equal(fromPage.headers.get('access-control-allow-origin'), '*')
    assert.match(fromPage.headers.get('access-control-expose-headers')!, /X-Block-Number/)
    assert.deepEqual(await fromPage.json(), await plain.json())
  })
})
