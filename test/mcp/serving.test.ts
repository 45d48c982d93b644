import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { buildApp, releaseDevnet, testDevnet, type TestApp } from '../support/harness.ts'
import { startRpcProxy } from '../support/rpc-proxy.ts'

/**
 * Issue 24: MCP tool calls and chat's nested reads are served by the same runtime as the HTTP
 * routes, so a read another transport just made is answered from the response cache: counted at
 * the RPC, the second call of a cached read makes no chain read (eth_call) at all.
 */
let proxy: Awaited<ReturnType<typeof startRpcProxy>>
let app: TestApp & { stop(): Promise<void> }
let client: Client

before(async () => {
  const devnet = await testDevnet()
  proxy = await startRpcProxy(devnet.url)
  app = await buildApp(devnet, { rpcUrl: () => proxy.url, env: { CACHE_TTL_SECONDS: '30' } })
  client = new Client({ name: 'serving-test', version: '1.0.0' })
  await client.connect(new StreamableHTTPClientTransport(new URL(`${app.url}/api/mcp`)))
})
after(async () => {
  await client?.close()
  await app?.stop()
  await proxy?.close()
  await releaseDevnet()
})

/** Chain reads (eth_call, multicall included) the service has sent so far. */
const chainReads = () => proxy.calls().filter((call) => call.method === 'eth_call').length

test('a second get_price over MCP within the cache time reads nothing from the chain, and equals the HTTP answer', async () => {
  const first = await client.callTool({ name: 'get_price', arguments: {} })
  assert.notEqual(first.isError, true)
  const afterFirst = chainReads()
  assert.ok(afterFirst > 0, 'the first call read the pool')
  const second = await client.callTool({ name: 'get_price', arguments: {} })
  assert.equal(chainReads(), afterFirst, 'no eth_call for the second call')
  assert.deepEqual(second.structuredContent, first.structuredContent)
  const viaHttp = await app.get('/api/price')
  assert.equal(chainReads(), afterFirst, 'nor for the HTTP route: one cache for every transport')
  assert.deepEqual(viaHttp.body, first.structuredContent)
})

test('an HTTP read warms the cache an MCP call of the same question is served from', async () => {
  const holder = app.devnet.info.accounts.demoHolder
  const viaHttp = await app.get(`/api/identity/${holder}`)
  assert.equal(viaHttp.status, 200)
  const before = chainReads()
  const viaMcp = await client.callTool({ name: 'get_identity', arguments: { addressOrName: holder.toLowerCase() } })
  assert.deepEqual(viaMcp.structuredContent, viaHttp.body)
  assert.equal(chainReads(), before, 'any spelling of the address is the same question')
})

test("chat's price answer is served from the same cache: asked twice, the second reads nothing from the chain", async () => {
  const first = await app.post('/api/agent/chat', { message: 'what is the price of megachad?' })
  assert.equal(first.status, 200)
  assert.equal(first.body.operationId, 'get_price')
  const afterFirst = chainReads()
  const second = await app.post('/api/agent/chat', { message: 'what is the price of megachad?' })
  assert.equal(second.body.answer, first.body.answer)
  assert.equal(chainReads(), afterFirst, 'no eth_call for the second answer')
  // And the HTTP route answers from what chat read.
  const viaHttp = await app.get('/api/price')
  assert.deepEqual(viaHttp.body, second.body.data)
  assert.equal(chainReads(), afterFirst)
})
