import { test } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { useApp } from '../support/harness.ts'

/**
 * Property-based fuzzing of every operation from the OpenAPI document: requests generated from
 * each operation's own parameter and body schemas, with fields swapped for arbitrary JSON, left
 * out or added, sent through Fastify inject to the service on the devnet and PGlite.
 * FUZZ_RUNS sets how many requests in all (default 300 to keep npm test short; the 10,000 with FUZZ_RUNS=10000); FUZZ_SEED replays a failure.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 300)
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined

// Limits off: the fuzzer exercises the operations, not the limiter (tested in abuse.test.ts).
const app = useApp({
  env: {
    RATE_LIMIT_WRITES_PER_MINUTE: '0',
    RATE_LIMIT_WALLET_WRITES_PER_MINUTE: '0',
    RATE_LIMIT_EXPENSIVE_PER_MINUTE: '0',
    RATE_LIMIT_WALLET_EXPENSIVE_PER_MINUTE: '0',
    LOOKSMAXX_WAIT_SECONDS: '2',
  },
})

type Schema = Record<string, any>
type Operation = { method: string; path: string; operationId: string; parameters?: Array<{ name: string; in: string; required?: boolean; schema: Schema }>; requestBody?: any; responses: Record<string, any> }

/** Tables only a successful paid or signed write may add rows to. */
const GUARDED_TABLES = ['submissions', 'tx_claims', 'submission_inputs', 'submission_steps', 'chain_txs', 'gasless_relays', 'portraits']

let doc: { paths: Record<string, Record<string, Omit<Operation, 'method' | 'path'>>> }
let operations: Operation[]
let rowsBefore: Record<string, number>

async function countRows(): Promise<Record<string, number>> {
  const counts: Record<string, number> = {}
  for (const table of GUARDED_TABLES) {
    const { rows } = await app.ctx.db.query<{ n: string | number }>(`SELECT count(*) AS n FROM ${table}`)
    counts[table] = Number(rows[0]!.n)
  }
  return counts
}

async function readDocument() {
  doc = (await app.http.inject({ method: 'GET', url: '/.well-known/openapi.json' })).json()
  operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ ...op, method: method.toUpperCase(), path })),
  )
  rowsBefore = await countRows()
}

/** Values that satisfy a JSON Schema, as far as fast-check's generators go. */
function valid(schema: Schema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 4) return fc.jsonValue({ maxDepth: 1 })
  if (schema.const !== undefined) return fc.constant(schema.const)
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum)
  const alternatives = schema.anyOf ?? schema.oneOf
  if (Array.isArray(alternatives)) return fc.oneof(...alternatives.map((s: Schema) => valid(s, depth + 1)))
  if (Array.isArray(schema.type)) return fc.oneof(...schema.type.map((type: string) => valid({ ...schema, type }, depth + 1)))
  switch (schema.type) {
    case 'string':
      if (schema.pattern) {
        try {
          return fc.stringMatching(new RegExp(schema.pattern), { size: 'small' })
        } catch {
          // a pattern fast-check cannot generate from: plain strings below
        }
      }
      return fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 40, 200) })
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1_000, max: schema.maximum ?? 1_000_000 })
    case 'number':
      return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e9, noNaN: true })
    case 'boolean':
      return fc.boolean()
    case 'null':
      return fc.constant(null)
    case 'array':
      return fc.array(valid(schema.items, depth + 1), { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 4, 4) })
    case 'object':
      return object(schema, depth)
    default:
      return fc.jsonValue({ maxDepth: 1 })
  }
}

/** An object from its properties: each field valid, arbitrary JSON, or left out; sometimes an extra field. */
function object(schema: Schema, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const properties: Record<string, Schema> = schema.properties ?? {}
  const fields = Object.fromEntries(Object.entries(properties).map(([name, s]) => [name, field(s, depth + 1)]))
  return fc
    .tuple(fc.record(fields, { requiredKeys: [] }), fc.option(fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 }), { freq: 5 }))
    .map(([record, extra]) => ({ ...(extra ?? {}), ...record }))
}

/** Mostly valid values, so requests get past validation and reach the handlers; some junk. */
function field(schema: Schema, depth: number): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 4, arbitrary: valid(schema, depth) }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) })
}

type Generated = { url: string; method: string; body?: unknown; rawBody?: string }

function requests(op: Operation): fc.Arbitrary<Generated> {
  const params = op.parameters ?? []
  const values = Object.fromEntries(params.map((p) => [p.name, fc.oneof({ weight: 4, arbitrary: valid(p.schema).map(String) }, { weight: 1, arbitrary: fc.string({ maxLength: 30 }) })]))
  const required = params.filter((p) => p.in === 'path' || p.required).map((p) => p.name)
  const bodySchema = op.requestBody?.content?.['application/json']?.schema
  const body = bodySchema ? fc.oneof({ weight: 9, arbitrary: valid(bodySchema) }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) }) : fc.constant(undefined)
  return fc.tuple(fc.record(values, { requiredKeys: required }), body).map(([chosen, generatedBody]) => {
    let path = op.path
    const query = new URLSearchParams()
    for (const p of params) {
      const value = (chosen as Record<string, string | undefined>)[p.name]
      if (value === undefined) continue
      if (p.in === 'path') path = path.replace(`{${p.name}}`, encodeURIComponent(value) || '%20')
      else if (p.in === 'query') query.set(p.name, value)
    }
    const qs = query.toString()
    return { method: op.method, url: qs ? `${path}?${qs}` : path, body: op.method === 'POST' ? generatedBody ?? {} : undefined }
  })
}

function documented(op: Operation, status: number): boolean {
  return Object.keys(op.responses ?? {}).includes(String(status))
}

test(`${RUNS} generated requests over every operation: no undocumented 5xx, every 4xx carries the error body`, { timeout: 600_000 }, async () => {
  await readDocument()
  // The event stream answers for 55 s by design (its parameter is tested in test/events).
  const fuzzed = operations.filter((op) => op.operationId !== 'stream_events')
  assert.ok(fuzzed.length >= 50, `${fuzzed.length} operations in the OpenAPI document`)
  const perOperation = Math.ceil(RUNS / fuzzed.length)
  const statuses = new Map<number, number>()
  let sent = 0
  const elapsed: Array<[string, number]> = []
  for (const op of fuzzed) {
    const started = performance.now()
    if (process.env.FUZZ_VERBOSE) console.log(`# fuzz: ${op.operationId}`)
    await fc.assert(
      fc.asyncProperty(requests(op), async (request) => {
        // The MCP transport: accept what Streamable HTTP requires, so generated JSON-RPC reaches the server.
        const mcp = op.path === '/api/mcp' ? { accept: 'application/json, text/event-stream' } : {}
        const response = await app.http.inject({
          method: request.method as 'GET' | 'POST' | 'DELETE',
          url: request.url,
          headers: { ...mcp, ...(request.body !== undefined ? { 'content-type': 'application/json' } : {}) },
          ...(request.body !== undefined ? { payload: JSON.stringify(request.body) } : {}),
        })
        sent++
        statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1)
        const where = `${op.operationId}: ${request.method} ${request.url} ${request.body !== undefined ? JSON.stringify(request.body).slice(0, 300) : ''} -> ${response.statusCode} ${response.body.slice(0, 300)}`
        if (response.statusCode >= 500) {
          // Only the spec's 502s (an upstream failed), and only where they are documented.
          assert.ok(response.statusCode === 502 && documented(op, 502), `undocumented ${response.statusCode}: ${where}`)
        }
        if (response.statusCode >= 400) {
          const body = response.json()
          const isError = typeof body?.error?.code === 'string' && typeof body.error.message === 'string'
          // The looksmaxx 402 carries the payment requirements instead (the x402 protocol).
          const isPaymentRequired = response.statusCode === 402 && typeof body?.x402Version === 'number'
          // The MCP transport answers with JSON-RPC error objects (integer codes), as its OpenAPI entry documents.
          const isJsonRpcError = op.path === '/api/mcp' && body?.jsonrpc === '2.0' && Number.isInteger(body.error?.code) && typeof body.error.message === 'string'
          assert.ok(isError || isPaymentRequired || isJsonRpcError, `no error body: ${where}`)
          if (isError) assert.match(body.error.code, /^[A-Z][A-Z0-9_]+$/, where)
          assert.ok(documented(op, response.statusCode) || !isJsonRpcError, `undocumented ${response.statusCode}: ${where}`)
        }
      }),
      { numRuns: perOperation, seed: SEED, endOnFailure: true },
    )
    elapsed.push([op.operationId, Math.round(performance.now() - started)])
  }
  assert.ok(sent >= RUNS, `${sent} requests sent`)
  // Nothing a rejected request did left a row behind.
  assert.deepEqual(await countRows(), rowsBefore, 'no submission, claim, transaction or relay rows from generated requests')
  const summary = [...statuses.entries()].sort(([a], [b]) => a - b).map(([s, n]) => `${s}: ${n}`).join(', ')
  console.log(`# fuzz: ${sent} requests over ${fuzzed.length} operations (${summary})`)
  const slowest = elapsed.sort(([, a], [, b]) => b - a).slice(0, 5).map(([id, ms]) => `${id} ${ms} ms`).join(', ')
  console.log(`# fuzz: slowest operations: ${slowest}`)
})
