import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { startTestDevnet } from '../support/devnet.ts'
import { startTestApp, getJson, type TestApp } from '../support/app.ts'
import { operations } from '../../src/operations/index.ts'

/** The spec: "MCP server at /api/mcp (32 tools)". */
const SPEC_TOOL_COUNT = 32

let devnet: Awaited<ReturnType<typeof startTestDevnet>>
let app: TestApp
let client: Client
/** X-Request-Id of the last /api/mcp response the client received. */
let lastRequestId: string | null = null
before(async () => {
  devnet = await startTestDevnet()
  app = await startTestApp({ rpcUrl: devnet.url })
  client = new Client({ name: 'test-agent', version: '1.0.0' })
  const recordingFetch: typeof fetch = async (input, init) => {
    const response = await fetch(input, init)
    lastRequestId = response.headers.get('x-request-id')
    return response
  }
  await client.connect(new StreamableHTTPClientTransport(new URL(`${app.url}/api/mcp`), { fetch: recordingFetch }))
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
  // The same request-id mechanism as HTTP: the X-Request-Id of the POST that carried the call.
  assert.match(body.error.details.requestId, /^[0-9a-f-]{36}$/)
  assert.equal(body.error.details.requestId, lastRequestId)
  const viaHttp = await getJson(`${app.url}/api/wallet?address=0x123`)
  assert.equal(viaHttp.body.error.code, body.error.code)
})

test(`conformance: the index announces ${SPEC_TOOL_COUNT} tools and tools/list returns exactly those`, async () => {
  const index = await getJson(`${app.url}/api/agent`)
  assert.equal(index.status, 200)
  assert.equal(index.body.mcp.toolCount, SPEC_TOOL_COUNT)
  assert.equal(index.body.mcp.tools.length, SPEC_TOOL_COUNT)
  const manifest = await getJson(`${app.url}/.well-known/mcp.json`)
  assert.equal(manifest.body.toolCount, SPEC_TOOL_COUNT)
  const { tools } = await client.listTools()
  assert.equal(tools.length, SPEC_TOOL_COUNT)
  assert.equal(tools.length, index.body.mcp.toolCount)
  assert.deepEqual(tools.map((t) => t.name).sort(), [...index.body.mcp.tools].sort())
  assert.deepEqual(manifest.body.tools.map((t: { name: string }) => t.name).sort(), [...index.body.mcp.tools].sort())
  for (const tool of tools) {
    assert.equal(tool.inputSchema.type, 'object', `${tool.name} has an input schema`)
    assert.ok(tool.description, `${tool.name} has a description`)
  }
})

test('conformance: every tool answers a call with a result or a tool error carrying a code, never a transport failure', async () => {
  const holder = devnet.info.accounts.demoHolder
  const zeroHash = `0x${'0'.repeat(64)}`
  // Reads and builders get valid input; writes get input they refuse (nothing is sent on chain).
  const calls: Record<string, Record<string, unknown>> = {
    get_swap_quote: { ethAmount: '0.01' },
    get_price: {},
    get_wallet: { address: holder },
    get_service_protocol: {},
    get_looksmaxx_requirements: {},
    submit_looksmaxx: { burnTxHash: 'nope' },
    get_looksmaxx_status: { burnTxHash: zeroHash },
    get_looksmaxx_plan: { wallet: holder },
    burn_to_create: { burnTxHash: 'nope' },
    get_chadboard: {},
    get_identity: { addressOrName: holder },
    get_gasless_burn: { address: holder },
    relay_gasless_burn: { burner: '0x123' },
    register_referral_agent: { wallet: '0x123' },
    get_referrals: { address: holder },
    get_cross_chain_intent: { sourceChain: 'arb', wallet: holder, amount: '0.7' },
    chat_with_agent: { message: 'what is the price?' },
    get_defi_staking: { address: holder },
    build_staking_tx: { action: 'stake', venue: 'mogger', amount: '1', address: holder },
    get_amm_quote: {},
    build_amm_swap_tx: { from: 'MC', amount: '1', recipient: holder },
    build_add_liquidity_tx: { amountMC: '1', amountMG: '1', recipient: holder },
    list_proposals: {},
    get_proposal: { id: '1' },
    build_vote_tx: { proposalId: '1', support: 'for' },
    build_queue_tx: { proposalId: '1' },
    build_execute_tx: { proposalId: '1' },
    build_propose_tx: { proposer: holder, targets: [holder], values: ['0'], calldatas: ['0x'], description: 'MCP conformance' },
    build_veto_tx: { proposalId: '1', support: 'yes', voter: holder },
    get_emission: {},
    get_safety: {},
    get_activity: {},
  }
  const { tools } = await client.listTools()
  assert.deepEqual(Object.keys(calls).sort(), tools.map((t) => t.name).sort(), 'one call per listed tool')
  let answered = 0
  for (const [name, args] of Object.entries(calls)) {
    // A transport failure (or a result the SDK client rejects) throws here.
    const result = await client.callTool({ name, arguments: args }).catch((error: Error) => assert.fail(`${name}: ${error.message}`))
    const text = (result.content as Array<{ type: string; text: string }>)[0]
    assert.equal(text?.type, 'text', `${name}: text content`)
    const body = JSON.parse(text.text)
    if (result.structuredContent !== undefined) assert.deepEqual(result.structuredContent, body, `${name}: structured content equals the text`)
    if (result.isError) {
      if (body.error) {
        assert.match(body.error.code, /^[A-Z_]+$/, `${name}: error code`)
        assert.ok(body.error.details.requestId, `${name}: request id`)
      } else {
        // The x402 requirements are the main answer of get_looksmaxx_requirements (HTTP 402).
        assert.equal(name, 'get_looksmaxx_requirements')
        assert.ok(result.structuredContent, `${name}: the requirements as structured content`)
      }
    } else {
      assert.ok(result.structuredContent, `${name}: structured content`)
      answered++
    }
  }
  assert.ok(answered >= 20, `most reads answer with data (${answered})`)
})

test('an unknown tool is a JSON-RPC error -32602, a body that is not JSON a -32700 with id null', async () => {
  await assert.rejects(client.callTool({ name: 'no_such_tool', arguments: {} }), (error: { code?: number; message: string }) => {
    assert.equal(error.code, -32602)
    assert.match(error.message, /Unknown tool no_such_tool/)
    return true
  })
  const response = await fetch(`${app.url}/api/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: '{"jsonrpc": "2.0", "id": 1, "method": "tools/li',
  })
  assert.equal(response.status, 400)
  const body = (await response.json()) as { jsonrpc: string; id: unknown; error: { code: number } }
  assert.equal(body.jsonrpc, '2.0')
  assert.equal(body.id, null)
  assert.equal(body.error.code, -32700)
})

test('GET on the MCP endpoint is 405 (stateless server)', async () => {
  const response = await fetch(`${app.url}/api/mcp`, { headers: { accept: 'text/event-stream' } })
  assert.equal(response.status, 405)
})
