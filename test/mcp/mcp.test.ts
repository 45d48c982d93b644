import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { startTestDevnet } from '../support/devnet.ts'
import { startTestApp, getJson, type TestApp } from '../support/app.ts'
import { operations } from '../../src/operations/index.ts'

let devnet: Awaited<ReturnType<typeof startTestDevnet>>
let app: TestApp
let client: Client
before(async () => {
  devnet = await startTestDevnet()
  app = await startTestApp({ rpcUrl: devnet.url })
  client = new Client({ name: 'test-agent', version: '1.0.0' })
  await client.connect(new StreamableHTTPClientTransport(new URL(`${app.url}/api/mcp`)))
})
after(async () => {
  await client?.close()
  await app?.stop()
  await devnet?.close()
})

test('the official MCP client lists one tool per exposed operation', async () => {
  const { tools } = await client.listTools()
  const expected = operations.filter((op) => op.mcp !== false).map((op) => op.id).sort()
  assert.deepEqual(tools.map((t) => t.name).sort(), expected)
  const wallet = tools.find((t) => t.name === 'get_wallet')!
  assert.deepEqual(wallet.inputSchema.required, ['address'])
  assert.equal(wallet.outputSchema?.type, 'object')
})

test('calling a tool returns the same data as the HTTP route', async () => {
  const holder = devnet.info.accounts.demoHolder
  const result = await client.callTool({ name: 'get_wallet', arguments: { address: holder } })
  assert.notEqual(result.isError, true)
  const viaHttp = await getJson(`${app.url}/api/wallet?address=${holder}`)
  assert.deepEqual(result.structuredContent, viaHttp.body)
  assert.deepEqual(JSON.parse((result.content as any)[0].text), viaHttp.body)
})

test('a bad argument is a tool error with the same code as HTTP', async () => {
  const result = await client.callTool({ name: 'get_wallet', arguments: { address: '0x123' } })
  assert.equal(result.isError, true)
  const body = JSON.parse((result.content as any)[0].text)
  assert.equal(body.error.code, 'INVALID_ADDRESS')
})

test('GET on the MCP endpoint is 405 (stateless server)', async () => {
  const response = await fetch(`${app.url}/api/mcp`, { headers: { accept: 'text/event-stream' } })
  assert.equal(response.status, 405)
})
