import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { useApp } from '../support/harness.ts'

/**
 * Conformance with the interface specification, whose expectations come from the spec's own
 * tables (not from the operations registry): every method and path of the Endpoints section
 * (the tables, the DeFi table, the paths named without shapes) is served, and is in
 * openapi.json with every status the spec documents for it (response column, Errors table).
 */
const SPEC = new URL('../../../../shared/spec/000_b3c38e83df0c0193.txt', import.meta.url)
const specPath = process.env.SPEC_FILE ?? (() => {
  try {
    readFileSync(SPEC)
    return SPEC
  } catch {
    return new URL('/work/shared/spec/000_b3c38e83df0c0193.txt', 'file://')
  }
})()

type Endpoint = { method: string; path: string; statuses: Set<number> }

/** Pure: the endpoints the spec text names, with the statuses it documents. */
export function parseSpecEndpoints(spec: string): Endpoint[] {
  const endpoints = new Map<string, Endpoint>()
  const add = (method: string, path: string, statuses: number[] = []) => {
    const clean = path.split('?')[0]!.replace(/\/$/, '') || '/'
    const key = `${method} ${clean}`
    const endpoint = endpoints.get(key) ?? { method, path: clean, statuses: new Set<number>() }
    for (const status of statuses) endpoint.statuses.add(status)
    endpoints.set(key, endpoint)
  }
  const statusesIn = (text: string) => [...text.matchAll(/(?:^|[;,(]\s*|\s)([1-5]\d\d)(?=\s|$|[;,)])/g)].map((m) => Number(m[1]))
  const section = (title: string, next: string) => spec.slice(spec.indexOf(title), spec.indexOf(next, spec.indexOf(title)))
  const endpointsText = section('\n## Endpoints', '\n## Authentication')
  for (const line of endpointsText.split('\n')) {
    const cells = line.split('|').map((c) => c.trim())
    // | Method | Path | Request | Response |  and  | Method | Path | Response | (event stream)
    if (/^(GET|POST|PUT|DELETE|PATCH)$/.test(cells[1] ?? '') && cells[2]?.startsWith('/')) {
      add(cells[1]!, cells[2]!, statusesIn(cells.at(-2) ?? ''))
      continue
    }
    // The DeFi table: | /api/defi/... | parameters | purpose |, GET unless the cell names the method.
    const defi = /^(?:(GET|POST) )?(\/api\/defi\/\S+)$/.exec(cells[1] ?? '')
    if (defi) add(defi[1] ?? 'GET', defi[2]!, statusesIn(cells.at(-2) ?? ''))
  }
  // Paths named without shapes: "GET /path", "POST /path", and documents at "/.well-known/x".
  const named = section('### Paths named without shapes', '\n## ')
  for (const match of named.matchAll(/\b(GET|POST) (\/[^\s,(]+)/g)) add(match[1]!, match[2]!)
  for (const match of named.matchAll(/(?:at |, |plus )(\/[\w./-]+\.(?:json|txt))/g)) add('GET', match[1]!)
  const mcp = /MCP server at (\/\S+?)[\s,(]/.exec(named)
  if (mcp) add('POST', mcp[1]!)
  // The Errors table: | GET /path | status | condition |, also "GET, POST /path".
  for (const line of section('\n## Errors', '\n## Limits').split('\n')) {
    const cells = line.split('|').map((c) => c.trim())
    const row = /^((?:GET|POST)(?:, (?:GET|POST))*) (\/\S+)$/.exec(cells[1] ?? '')
    if (row && /^\d{3}$/.test(cells[2] ?? '')) for (const method of row[1]!.split(', ')) add(method, row[2]!, [Number(cells[2])])
  }
  return [...endpoints.values()]
}

const spec = readFileSync(specPath, 'utf8')
const endpoints = parseSpecEndpoints(spec)

test('the spec parser finds the tables (a spec change that breaks it fails here)', () => {
  const keys = endpoints.map((e) => `${e.method} ${e.path}`)
  for (const expected of ['GET /api/x402/quote', 'POST /api/x402/looksmaxx', 'GET /api/events', 'GET /api/defi/activity', 'POST /api/defi/governance/propose-tx', 'GET /api/identity/{addressOrName}', 'POST /api/generate', 'GET /.well-known/openapi.json', 'GET /llms-full.txt', 'POST /api/mcp']) {
    assert.ok(keys.includes(expected), `${expected} in ${JSON.stringify(keys)}`)
  }
  assert.ok(endpoints.length >= 55, `${endpoints.length} endpoints`)
  const looksmaxx = endpoints.find((e) => e.method === 'POST' && e.path === '/api/x402/looksmaxx')!
  assert.deepEqual([...looksmaxx.statuses].sort(), [200, 400, 402, 409, 502])
})

const app = useApp()

/** A concrete URL for a spec path: path parameters get a well-formed value. */
function concrete(path: string): string {
  return path.replace('{tokenId}', '1').replace('{id}', '1').replace('{addressOrName}', '0x000000000000000000000000000000000000dEaD')
}

test('every method and path of the spec is served (neither "no route" nor 405)', async () => {
  const missing: string[] = []
  for (const { method, path } of endpoints) {
    const response = method === 'GET' && path === '/api/events'
      ? undefined // a stream that stays open: checked through openapi.json below and in test/events
      : await app.request(method, concrete(path), method === 'POST' ? { body: {} } : {})
    if (!response) continue
    const noRoute = response.status === 404 && /^No route/.test(String(response.body?.error?.message))
    if (noRoute || response.status === 405) missing.push(`${method} ${path} → ${response.status} ${response.text.slice(0, 120)}`)
  }
  assert.deepEqual(missing, [])
})

test('openapi.json has every method and path of the spec, with every status the spec documents', async () => {
  const { status, body: openapi } = await app.get('/.well-known/openapi.json')
  assert.equal(status, 200)
  const problems: string[] = []
  for (const { method, path, statuses } of endpoints) {
    const operation = openapi.paths?.[path]?.[method.toLowerCase()]
    if (!operation) {
      problems.push(`${method} ${path}: not in openapi.json`)
      continue
    }
    for (const code of statuses) if (!operation.responses?.[String(code)]) problems.push(`${method} ${path}: status ${code} not documented`)
  }
  assert.deepEqual(problems, [])
})
