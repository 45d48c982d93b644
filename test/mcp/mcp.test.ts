import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { Tool } from '@modelcontextprotocol/sdk/types.js'
import { useApp } from '../support/harness.ts'

/**
 * The MCP server as an agent meets it, with the official client. The expectations come from the
 * spec ("MCP server at /api/mcp (32 tools)"; the agent index's mcp.toolCount is 32) and from the
 * reference server's 20 tools (docs/contributors/contracts.md, The reference's MCP server, listed below by the HTTP route each proxies), not
 * from the registry: every one of those capabilities must be reachable and give the HTTP data.
 */
const SPEC_TOOL_COUNT = 32

/** The reference's 20 tools: what each proxies, and arguments for it. */
const REFERENCE_CAPABILITIES: Array<{ reference: string; method: 'GET' | 'POST'; path: string; args: (holder: string) => Record<string, unknown>; url?: (holder: string) => string }> = [
  { reference: 'get_megachad_stats', method: 'GET', path: '/api/stats', args: () => ({}) },
  { reference: 'get_swap_quote', method: 'GET', path: '/api/x402/quote', args: () => ({ ethAmount: '0.01' }), url: () => '/api/x402/quote?ethAmount=0.01' },
  { reference: 'get_looksmaxx_requirements', method: 'GET', path: '/api/x402/looksmaxx', args: () => ({}) },
  { reference: 'get_gallery', method: 'GET', path: '/api/gallery', args: () => ({ limit: 5, offset: 0 }), url: () => '/api/gallery?limit=5&offset=0' },
  { reference: 'get_chadboard', method: 'GET', path: '/api/chadboard', args: () => ({}) },
  { reference: 'get_agent_info', method: 'GET', path: '/api/agent/info', args: () => ({}) },
  { reference: 'register_early_access', method: 'POST', path: '/api/early/register', args: (holder) => ({ wallet: holder }) },
  { reference: 'get_nft_metadata', method: 'GET', path: '/api/metadata/{tokenId}', args: () => ({ tokenId: '1' }), url: () => '/api/metadata/1' },
  { reference: 'get_price', method: 'GET', path: '/api/price', args: () => ({}) },
  { reference: 'get_wallet_info', method: 'GET', path: '/api/wallet', args: (holder) => ({ address: holder }), url: (holder) => `/api/wallet?address=${holder}` },
  { reference: 'get_looksmaxx_plan', method: 'GET', path: '/api/agent/looksmaxx', args: (holder) => ({ wallet: holder }), url: (holder) => `/api/agent/looksmaxx?wallet=${holder}` },
  { reference: 'gasless_burn_info', method: 'GET', path: '/api/gasless/burn', args: (holder) => ({ address: holder }), url: (holder) => `/api/gasless/burn?address=${holder}` },
  { reference: 'register_referral_agent', method: 'POST', path: '/api/agent/register', args: (holder) => ({ wallet: holder }) },
  { reference: 'get_referral_stats', method: 'GET', path: '/api/agent/referrals', args: (holder) => ({ address: holder }), url: (holder) => `/api/agent/referrals?address=${holder}` },
  { reference: 'chat_with_megachad', method: 'POST', path: '/api/agent/chat', args: () => ({ message: 'what is the price?' }) },
  { reference: 'get_bridge_info', method: 'GET', path: '/api/bridge', args: () => ({}) },
  { reference: 'cross_chain_looksmaxx', method: 'GET', path: '/api/cross-chain/intent', args: (holder) => ({ sourceChain: 'base', wallet: holder, amount: '0.7' }), url: (holder) => `/api/cross-chain/intent?sourceChain=base&wallet=${holder}&amount=0.7` },
  { reference: 'get_identity', method: 'GET', path: '/api/identity/{addressOrName}', args: (holder) => ({ addressOrName: holder }), url: (holder) => `/api/identity/${holder}` },
  { reference: 'get_portfolio', method: 'GET', path: '/api/portal/tokens', args: (holder) => ({ address: holder }), url: (holder) => `/api/portal/tokens?address=${holder}` },
  { reference: 'get_megaeth_protocols', method: 'GET', path: '/api/portal/protocols', args: () => ({}) },
]

const app = useApp()
let client: Client
/** X-Request-Id of the last /api/mcp response the client received. */
let lastRequestId: string | null = null
let tools: Tool[]
before(async () => {
  client = new Client({ name: 'test-agent', version: '1.0.0' })
  const recordingFetch: typeof fetch = async (input, init) => {
    const response = await fetch(input, init)
    lastRequestId = response.headers.get('x-request-id')
    return response
  }
  await client.connect(new StreamableHTTPClientTransport(new URL(`${app.url}/api/mcp`), { fetch: recordingFetch }))
  tools = (await client.listTools()).tools
})
after(async () => {
  await client?.close()
})

/** A copy without the fields each call makes anew: an intent's id, a deadline counted from the call's second. */
function withoutPerCall(value: unknown, strip: string[] = []): unknown {
  if (Array.isArray(value)) return value.map((inner) => withoutPerCall(inner, strip))
  if (!value || typeof value !== 'object') return value
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'intentId' && key !== 'deadline' && !strip.includes(key))
      .map(([key, inner]) => [key, withoutPerCall(inner, strip)]),
  )
}

type Route = { method: string; path: string; operationId: string; [key: string]: string }
const routesOf = (tool: Tool) => (tool._meta?.http ?? []) as Route[]
/** The tool (and its discriminator argument) that serves an HTTP route, found through tools/list alone. */
function toolFor(method: string, path: string): { tool: Tool; discriminator: Record<string, string> } | undefined {
  for (const tool of tools) {
    const route = routesOf(tool).find((r) => r.method === method && r.path === path)
    if (!route) continue
    const { method: _m, path: _p, operationId: _o, ...discriminator } = route
    return { tool, discriminator }
  }
  return undefined
}

test(`the spec's ${SPEC_TOOL_COUNT} tools: tools/list, the agent index, mcp.json, OpenAPI and the README agree`, async () => {
  assert.equal(tools.length, SPEC_TOOL_COUNT)
  const index = await app.get('/api/agent')
  assert.equal(index.body.mcp.toolCount, SPEC_TOOL_COUNT)
  assert.deepEqual([...index.body.mcp.tools].sort(), tools.map((t) => t.name).sort())
  const manifest = await app.get('/.well-known/mcp.json')
  assert.equal(manifest.body.toolCount, SPEC_TOOL_COUNT)
  assert.deepEqual(manifest.body.tools.map((t: { name: string }) => t.name).sort(), tools.map((t) => t.name).sort())
  const openapi = await app.get('/.well-known/openapi.json')
  assert.match(openapi.body.paths['/api/mcp'].post.summary, new RegExp(`${SPEC_TOOL_COUNT} tools`))
  const readme = await readFile('README.md', 'utf8')
  assert.match(readme, new RegExp(`${SPEC_TOOL_COUNT} MCP tools`))
})

test('on the devnet, where every contract is deployed, no tool is marked as not deployed', () => {
  for (const tool of tools) {
    assert.equal(tool._meta?.notDeployed, undefined, tool.name)
    assert.doesNotMatch(tool.description ?? '', /Not deployed/, tool.name)
  }
})

test('every tool has a title, the four annotations, an input and an output schema', () => {
  for (const tool of tools) {
    assert.ok(tool.title, `${tool.name}: title`)
    assert.equal(tool.inputSchema.type, 'object', `${tool.name}: input schema`)
    assert.equal(tool.outputSchema?.type, 'object', `${tool.name}: output schema`)
    for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const) {
      assert.equal(typeof tool.annotations?.[hint], 'boolean', `${tool.name}: ${hint}`)
    }
    assert.ok(routesOf(tool).length >= 1, `${tool.name}: names its HTTP routes`)
  }
  // What the hints say is true of the tools an agent must be careful with.
  const byName = new Map(tools.map((t) => [t.name, t]))
  assert.equal(byName.get('relay_gasless_burn')!.annotations!.readOnlyHint, false)
  assert.equal(byName.get('relay_gasless_burn')!.annotations!.destructiveHint, true, 'a relay burns tokens')
  assert.equal(byName.get('submit_looksmaxx')!.annotations!.readOnlyHint, false)
  assert.equal(byName.get('get_price')!.annotations!.readOnlyHint, true)
  assert.equal(byName.get('build_tx')!.annotations!.readOnlyHint, true, 'a builder returns a transaction; it sends nothing')
})

test('each of the reference server\'s 20 capabilities is reachable and answers the HTTP endpoint\'s data', async () => {
  const holder = app.devnet.info.accounts.demoHolder
  for (const capability of REFERENCE_CAPABILITIES) {
    const found = toolFor(capability.method, capability.path)
    assert.ok(found, `${capability.reference} (${capability.method} ${capability.path}) is reachable by a tool`)
    const args = { ...found.discriminator, ...capability.args(holder) }
    const result = await client.callTool({ name: found.tool.name, arguments: args })
    const url = capability.url?.(holder) ?? capability.path
    const viaHttp = capability.method === 'GET' ? await app.get(url) : await app.post(url, capability.args(holder))
    if (viaHttp.status >= 400 && viaHttp.status !== 402) {
      // A refusal (a write without its signature): the same code both ways.
      assert.equal(result.isError, true, capability.reference)
      assert.equal(JSON.parse((result.content as any)[0].text).error.code, viaHttp.body.error.code, capability.reference)
      continue
    }
    const structured = result.structuredContent as Record<string, unknown>
    assert.ok(structured, `${capability.reference}: structured content`)
    if (capability.path === '/api/agent/chat') {
      assert.equal(structured.intent, viaHttp.body.intent)
      assert.equal(structured.answer, viaHttp.body.answer)
      continue
    }
    // What is new per call (an intent's id, a signature deadline counted from now) aside, the same
    // data; a payment offer names the resource called (the MCP endpoint here), and its signature with it.
    const strip = capability.path === '/api/x402/looksmaxx' ? ['resource', 'resourceUrl', 'signature', 'validUntil'] : []
    assert.deepEqual(withoutPerCall(structured, strip), withoutPerCall(viaHttp.body, strip), `${capability.reference}: the same data as ${capability.method} ${url}`)
  }
})

test('every tool and every variant of a grouped tool answers a result or a tool error with a code, never a transport failure', async () => {
  const holder = app.devnet.info.accounts.demoHolder
  const zeroHash = `0x${'0'.repeat(64)}`
  // Arguments by operation: reads and builders get valid input; writes get input they refuse.
  const argsByOperation: Record<string, Record<string, unknown>> = {
    get_swap_quote: { ethAmount: '0.01' },
    get_wallet: { address: holder },
    submit_looksmaxx: { burnTxHash: 'nope' },
    get_looksmaxx_status: { burnTxHash: zeroHash },
    get_looksmaxx_plan: { wallet: holder },
    get_nft_metadata: { tokenId: '1' },
    burn_to_create: { burnTxHash: 'nope' },
    get_ipfs_content: { cid: 'bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku' },
    get_identity: { addressOrName: holder },
    get_portal_tokens: { address: holder },
    get_gasless_burn: { address: holder },
    relay_gasless_burn: { burner: '0x123' },
    register_referral_agent: { wallet: '0x123' },
    get_referral_agent: { address: holder },
    get_referrals: { address: holder },
    get_early_access: { wallet: holder },
    register_early_access: { wallet: '0x123' },
    get_cross_chain_intent: { sourceChain: 'arb', wallet: holder, amount: '0.7' },
    chat_with_agent: { message: 'what is the price?' },
    get_defi_staking: { address: holder },
    build_staking_tx: { action: 'stake', venue: 'mogger', amount: '1', address: holder },
    build_amm_swap_tx: { from: 'MC', amount: '1', recipient: holder },
    build_add_liquidity_tx: { amountMC: '1', amountMG: '1', recipient: holder },
    get_proposal: { id: '1' },
    get_propose_eligibility: { proposer: holder },
    build_vote_tx: { proposalId: '1', support: 'for' },
    build_queue_tx: { proposalId: '1' },
    build_execute_tx: { proposalId: '1' },
    build_propose_tx: { proposer: holder, targets: [holder], values: ['0'], calldatas: ['0x'], description: 'MCP conformance' },
    build_veto_tx: { proposalId: '1', support: 'yes', voter: holder },
    get_defi_nft: { address: holder },
  }
  let answered = 0
  let calls = 0
  for (const tool of tools) {
    for (const route of routesOf(tool)) {
      const { method: _m, path: _p, operationId, ...discriminator } = route
      const args = { ...discriminator, ...(argsByOperation[operationId] ?? {}) }
      calls++
      // A transport failure (or a result the SDK client rejects against the output schema) throws here.
      const result = await client.callTool({ name: tool.name, arguments: args }).catch((error: Error) => assert.fail(`${tool.name} ${JSON.stringify(discriminator)}: ${error.message}`))
      const first = (result.content as Array<{ type: string; text?: string }>)[0]
      if (result.isError) {
        const body = JSON.parse(first!.text!)
        if (body.error) {
          assert.match(body.error.code, /^[A-Z_]+$/, `${operationId}: error code`)
          assert.ok(body.error.details.requestId, `${operationId}: request id`)
        } else {
          // The x402 requirements are the main answer of get_looksmaxx_requirements (HTTP 402).
          assert.equal(operationId, 'get_looksmaxx_requirements')
          assert.ok(result.structuredContent, `${operationId}: the requirements as structured content`)
        }
      } else {
        assert.ok(result.structuredContent, `${operationId}: structured content`)
        if (first?.type === 'text' && (result.structuredContent as { text?: string }).text === undefined) {
          assert.deepEqual(result.structuredContent, JSON.parse(first.text!), `${operationId}: structured content equals the text`)
        }
        answered++
      }
    }
  }
  assert.ok(calls >= 59, `every operation but the stream was called (${calls})`)
  assert.ok(answered >= 40, `most reads answer with data (${answered})`)
})

test('a text document comes as text, with its content type in the structured content', async () => {
  const result = await client.callTool({ name: 'get_discovery_document', arguments: { document: 'llms_txt' } })
  assert.notEqual(result.isError, true)
  const text = (result.content as Array<{ type: string; text: string }>)[0]!
  assert.equal(text.type, 'text')
  assert.match(text.text, /^# /)
  assert.match((result.structuredContent as { contentType: string }).contentType, /text\/markdown|text\/plain/)
})

test('a grouped tool without its discriminator, or with an unknown one, is a tool error naming the choices', async () => {
  for (const args of [{}, { action: 'launch' }]) {
    const result = await client.callTool({ name: 'build_tx', arguments: args })
    assert.equal(result.isError, true)
    const error = JSON.parse((result.content as any)[0].text).error
    assert.equal(error.code, 'INVALID_INPUT')
    assert.match(error.message, /staking, amm_swap, add_liquidity/)
  }
})

test('every tool name a discovery document mentions is a tool of tools/list', async () => {
  const names = new Set(tools.map((t) => t.name))
  const documents: Record<string, string> = {
    '/llms.txt': (await app.get('/llms.txt')).text,
    '/llms-full.txt': (await app.get('/llms-full.txt')).text,
    '/agents.txt': (await app.get('/agents.txt')).text,
    '/.well-known/mcp.json': (await app.get('/.well-known/mcp.json')).text,
    '/.well-known/agent.json': (await app.get('/.well-known/agent.json')).text,
  }
  let mentioned = 0
  for (const [url, text] of Object.entries(documents)) {
    for (const match of text.matchAll(/MCP tool:? `(\w+)`/g)) {
      mentioned++
      assert.ok(names.has(match[1]!), `${url} names the tool ${match[1]}, which tools/list does not return`)
    }
  }
  const manifest = JSON.parse(documents['/.well-known/mcp.json']!)
  for (const tool of manifest.tools) assert.ok(names.has(tool.name), `mcp.json: ${tool.name}`)
  const card = JSON.parse(documents['/.well-known/agent.json']!)
  for (const skill of card.skills) assert.ok(names.has(skill.id), `agent card skill ${skill.id}`)
  assert.ok(mentioned >= 50, `llms-full.txt names the tool of every operation (${mentioned})`)
})

test('a bad argument is a tool error with the same code as HTTP', async () => {
  const result = await client.callTool({ name: 'get_wallet', arguments: { address: '0x123' } })
  assert.equal(result.isError, true)
  const body = JSON.parse((result.content as any)[0].text)
  assert.equal(body.error.code, 'INVALID_ADDRESS')
  // The same request-id mechanism as HTTP: the X-Request-Id of the POST that carried the call.
  assert.match(body.error.details.requestId, /^[0-9a-f-]{36}$/)
  assert.equal(body.error.details.requestId, lastRequestId)
  const viaHttp = await app.get('/api/wallet?address=0x123')
  assert.equal(viaHttp.body.error.code, body.error.code)
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
