import { test } from 'node:test'
import assert from 'node:assert/strict'
import { useApp } from '../support/harness.ts'
import { operations } from '../../src/operations/index.ts'

/**
 * Discovery that tells the truth: every link and path any discovery document names answers,
 * on this origin, with something other than a 404. Documents are read as an agent reads them:
 * absolute URLs, relative paths, "METHOD /path" strings, Markdown links, HTML hrefs.
 */
const app = useApp()

const DOCUMENTS = [
  '/api/agent',
  '/.well-known/agent.json',
  '/.well-known/mcp.json',
  '/.well-known/ai-plugin.json',
  '/.well-known/agent-registration.json',
  '/.well-known/openapi.json',
  '/.well-known/service-protocol.json',
  '/agents.txt',
  '/llms.txt',
  '/llms-full.txt',
  '/terms',
  '/privacy',
]

type Call = { method: 'GET' | 'POST'; path: string; from: string }

/** Sample values for placeholders (`<your wallet>`, `{tokenId}`) and required parameters. */
function samples() {
  const holder = app.devnet.info.accounts.demoHolder
  return {
    address: holder,
    txHash: `0x${'ab'.repeat(32)}`,
    tokenId: '1',
    id: '1',
    addressOrName: holder,
  }
}

function fillPlaceholders(text: string): string {
  const s = samples()
  return text
    .replace(/<([^<>]*)>/g, (whole, name: string) =>
      /hash/i.test(name) ? s.txHash : /wallet|address|burner|agent/i.test(name) ? s.address : whole,
    )
    .replace(/\{(\w+)\}/g, (whole, name: string) => {
      if (/hash/i.test(name)) return s.txHash
      if (name === 'cid') return whole // filled with a real pinned CID by the caller
      return (s as Record<string, string>)[name] ?? whole
    })
}

/** Every call a document names: absolute URLs on our origin, "METHOD /path", Markdown links, hrefs, relative paths. */
function callsIn(text: string, base: string, from: string): Call[] {
  const filled = fillPlaceholders(text)
  const calls: Call[] = []
  const add = (method: string, raw: string) => {
    let path = raw.replace(/[.,:;]+$/, '')
    if (path.startsWith(base)) path = path.slice(base.length)
    // The bare origin is named as the base URL to build calls on, not as a page.
    if (!path.startsWith('/') || path === '/') return
    calls.push({ method: method === 'POST' ? 'POST' : 'GET', path, from })
  }
  const escaped = base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  // "GET http://…/api/x" or "POST /api/x": the method applies.
  for (const m of filled.matchAll(new RegExp(`\\b(GET|POST) (${escaped}[^\\s"'\`)<>,]*|/[^\\s"'\`)<>,]*)`, 'g'))) add(m[1]!, m[2]!)
  // Any other absolute URL on our origin.
  for (const m of filled.matchAll(new RegExp(`${escaped}[^\\s"'\`)<>,]*`, 'g'))) add('GET', m[0])
  // Markdown links and HTML hrefs to relative paths.
  for (const m of filled.matchAll(/\]\((\/[^)\s]*)\)|href="(\/[^"]*)"/g)) add('GET', m[1] ?? m[2]!)
  return calls
}

/** JSON documents: also every string value that is a relative path ("/api/..."). */
function relativePathsIn(value: unknown, from: string, out: Call[] = []): Call[] {
  const named = value as { method?: unknown; path?: unknown } | null
  if (named && typeof named === 'object' && typeof named.method === 'string' && typeof named.path === 'string') {
    // An endpoint entry ({ method, path, ... }): called with its method.
    out.push({ method: named.method === 'POST' ? 'POST' : 'GET', path: fillPlaceholders(named.path), from })
    return out
  }
  if (typeof value === 'string') {
    const filled = fillPlaceholders(value)
    if (/^\/[\w./{}-]*(\?[^\s]*)?$/.test(filled) && filled.length > 1) out.push({ method: 'GET', path: filled, from })
  } else if (Array.isArray(value)) value.forEach((v) => relativePathsIn(v, from, out))
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => relativePathsIn(v, from, out))
  return out
}

/**
 * The per-burn status of a looksmaxx names a burn this fixture never submitted: its 404 is the
 * documented answer of a mounted route, with the JSON error body (a route that is not mounted
 * answers "No route").
 */
function documentedNotFound(path: string, text: string): boolean {
  // The sample hash is no submission: its status, receipt document and feedback plan answer NOT_FOUND, not "No route".
  return /^\/api\/x402\/looksmaxx\/0x[0-9a-f]{64}(\/receipt|\/feedback-tx)?$/.test(path) && /"code":"NOT_FOUND"/.test(text) && !text.includes('No route')
}

/** Seeded proposals in the state each builder needs (src/devnet/deploy-defi.ts: 4 Succeeded, 6 Queued, 7 Active). */
const PROPOSAL_FOR: Record<string, string> = {
  '/api/defi/governance/vote-tx': '7',
  '/api/defi/governance/queue-tx': '4',
  '/api/defi/governance/execute-tx': '6',
  '/api/defi/governance/veto-tx': '6',
}

/** Example parameters a path needs beyond the generic ones (null: leave the parameter out). */
const EXAMPLES: Record<string, Record<string, string | null>> = {
  // Without an address the builder plans for any wallet; the demo holder owns no NFT, and staking needs one.
  '/api/defi/staking/tx': { address: null },
  // The demo holder owns no MG: with its address the plan's simulation refuses the addLiquidity.
  '/api/defi/amm/add-liquidity-tx': { address: null },
  '/api/defi/amm/quote': { from: 'MC' },
}

/** Refusals that are the documented answer for every seeded example (the seed's Queued proposal is in its timelock). */
function documentedRefusal(template: string, text: string): boolean {
  return template === '/api/defi/governance/execute-tx' && text.includes('"timelock_pending"')
}

type ParamSchema = { type?: string; enum?: unknown[]; minimum?: number; pattern?: string; default?: unknown }

/** An example value for a required parameter of the OpenAPI document, from its name and schema. */
function exampleFor(name: string, schema: ParamSchema): string {
  if (schema.enum?.length) return String(schema.enum[0])
  if (/hash/i.test(name)) return samples().txHash
  if (/address|wallet|burner|recipient|voter|proposer|agent/i.test(name)) return samples().address
  if (name === 'ethAmount') return '0.1'
  if (/amount/i.test(name)) return '1'
  if (schema.type === 'integer' || schema.type === 'number' || /id$/i.test(name)) return String(schema.minimum ?? 1)
  return '1'
}

async function attempt(base: string, call: Call): Promise<{ status: number; text: string }> {
  const controller = new AbortController()
  const response = await fetch(`${base}${call.path}`, {
    method: call.method,
    signal: controller.signal,
    ...(call.method === 'POST' ? { headers: { 'content-type': 'application/json' }, body: '{}' } : {}),
  })
  // The event stream never ends by itself: its headers are the answer.
  const streamed = (response.headers.get('content-type') ?? '').startsWith('text/event-stream')
  const text = streamed ? '' : await response.text()
  controller.abort()
  return { status: response.status, text }
}

test('every discovery document answers, and every link and path it names is served (no 404)', async (t) => {
  const base = app.url
  // A real CID for /ipfs/{cid}: pin something through the service's own pinner.
  const { cid } = await app.ctx.pipeline.deps.ipfs.add(Buffer.from('discovery walk'), { name: 'walk.txt', mimeType: 'text/plain' })
  const calls: Call[] = []
  for (const doc of DOCUMENTS) {
    const response = await fetch(`${base}${doc}`)
    const text = await response.text()
    assert.equal(response.status, 200, `${doc} answers 200`)
    calls.push(...callsIn(text, base, doc))
    if ((response.headers.get('content-type') ?? '').includes('json')) calls.push(...relativePathsIn(JSON.parse(text), doc))
  }
  const unique = new Map<string, Call>()
  for (const call of calls) unique.set(`${call.method} ${call.path.replace('{cid}', cid)}`, { ...call, path: call.path.replace('{cid}', cid) })
  const failures: string[] = []
  for (const call of unique.values()) {
    if (call.path.startsWith('/api/mcp')) continue // checked with an initialize below
    const { status, text } = await attempt(base, call)
    t.diagnostic(`${call.method} ${call.path} -> ${status} (named in ${call.from})`)
    if (documentedNotFound(call.path, text)) continue
    if (status === 404 || status >= 500) failures.push(`${call.method} ${call.path} -> ${status} (named in ${call.from}): ${text.slice(0, 200)}`)
  }
  assert.deepEqual(failures, [])
  // The walk reached what matters: the index's groups, the legal pages, the manifests.
  for (const path of ['/terms', '/privacy', '/api/price', '/api/agent/chat', '/api/defi/staking/tx', '/.well-known/mcp.json']) {
    assert.ok([...unique.values()].some((c) => c.path.split('?')[0] === path), `${path} is named by some document`)
  }
})

test('the MCP endpoint every document names answers an initialize', async () => {
  const { body: index } = await app.get(`/api/agent`)
  const { body: manifest } = await app.get(`/.well-known/mcp.json`)
  assert.equal(index.mcp.url, manifest.transport.url)
  const response = await fetch(index.mcp.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'discovery-walk', version: '1.0.0' } },
    }),
  })
  const text = await response.text()
  assert.equal(response.status, 200, text)
  assert.match(text, /"serverInfo"/)
})

test('every path of the OpenAPI document, with example parameters, answers without a 404 or a server error', async (t) => {
  const base = app.url
  const { body: openapi } = await app.get(`/.well-known/openapi.json`)
  const { cid } = await app.ctx.pipeline.deps.ipfs.add(Buffer.from('openapi walk'), { name: 'walk.txt', mimeType: 'text/plain' })
  const failures: string[] = []
  for (const [template, methods] of Object.entries(openapi.paths as Record<string, Record<string, { parameters?: Array<{ name: string; in: string; required: boolean; schema: ParamSchema }> }>>)) {
    for (const [method, op] of Object.entries(methods)) {
      const params = op.parameters ?? []
      const path = template.replace(/\{(\w+)\}/g, (_, name: string) => {
        const schema = params.find((p) => p.name === name)?.schema ?? {}
        return encodeURIComponent(name === 'cid' ? cid : fillPlaceholders(`{${name}}`).startsWith('{') ? exampleFor(name, schema) : fillPlaceholders(`{${name}}`))
      })
      // Required parameters, and the optional ones a real call would give (a wallet, an amount).
      const overrides = EXAMPLES[template] ?? {}
      const given = params.filter((p) => p.in === 'query' && (p.required || /address|amount/i.test(p.name) || p.name in overrides) && overrides[p.name] !== null)
      const query = new URLSearchParams(
        given.map((p): [string, string] => [p.name, overrides[p.name] ?? (p.name === 'proposalId' && PROPOSAL_FOR[template] ? PROPOSAL_FOR[template]! : exampleFor(p.name, p.schema))]),
      )
      const call: Call = { method: method.toUpperCase() as Call['method'], path: `${path}${query.size ? `?${query}` : ''}`, from: 'openapi.json' }
      if (call.path.startsWith('/api/mcp')) continue
      const { status, text } = await attempt(base, call)
      t.diagnostic(`${call.method} ${call.path} -> ${status}`)
      if (documentedNotFound(call.path.split('?')[0]!, text) || documentedRefusal(template, text)) continue
      // A GET with its parameters filled is a successful call (402 is the looksmaxx requirements);
      // a POST with an empty body is refused as invalid input, never 404.
      const ok = call.method === 'GET' ? status < 400 || status === 402 : status !== 404 && status < 500
      if (!ok) failures.push(`${call.method} ${call.path} -> ${status}: ${text.slice(0, 200)}`)
    }
  }
  assert.deepEqual(failures, [])
})

test('the agent index fills every endpoint group and every contract address, and links real legal pages', async () => {
  const { body: index } = await app.get(`/api/agent`)
  for (const [group, entries] of Object.entries(index.endpoints as Record<string, Record<string, string>>)) {
    assert.ok(Object.keys(entries).length > 0, `endpoint group ${group} is not empty`)
  }
  const grouped = Object.values(index.endpoints as Record<string, Record<string, string>>).flatMap((g) => Object.values(g))
  assert.deepEqual(grouped.sort(), operations.map((op) => `${op.method} ${op.path}`).sort(), 'every operation is in exactly one group')
  for (const [name, address] of Object.entries(index.contracts as Record<string, string | null>)) {
    assert.match(address ?? '', /^0x[0-9a-fA-F]{40}$/, `contract ${name} has an address`)
  }
  assert.equal(index.legal.terms, `${app.url}/terms`)
  assert.equal(index.legal.privacy, `${app.url}/privacy`)
  for (const url of [index.legal.terms, index.legal.privacy]) {
    const response = await fetch(url)
    assert.equal(response.status, 200)
    assert.match(response.headers.get('content-type') ?? '', /text\/html/)
    const page = await response.text()
    assert.match(page, /IPFS/)
  }
  const privacy = await (await fetch(index.legal.privacy)).text()
  // Written from this instance's configuration: the built-in stylizer keeps uploads in the service.
  assert.match(privacy, /built-in stylizer/)
  assert.match(privacy, /permanent/)
  const terms = await (await fetch(index.legal.terms)).text()
  assert.match(terms, /without warranty/)
})

test('the agent card carries the x402 scheme details of the looksmaxx payment', async () => {
  const { body: card } = await app.get(`/.well-known/agent.json`)
  const { body: requirements } = await app.get(`/api/x402/looksmaxx`)
  const accepted = requirements.accepts[0]
  assert.equal(card.x402.scheme, accepted.scheme)
  assert.equal(card.x402.network, accepted.network)
  assert.equal(card.x402.asset, accepted.asset)
  assert.equal(card.x402.payTo, accepted.payTo)
  assert.equal(card.x402.maxAmountRequired, accepted.maxAmountRequired)
  assert.deepEqual(card.x402.assetDomain, accepted.extra)
  assert.equal(card.legal.terms, `${app.url}/terms`)
  const { body: plugin } = await app.get(`/.well-known/ai-plugin.json`)
  assert.equal(plugin.legal_info_url, `${app.url}/terms`)
})
