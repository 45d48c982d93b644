import { test, before, after, describe } from 'node:test'
import assert from 'node:assert/strict'
import { useApp, type InjectResponse, type TestApp, type TestDevnet } from '../support/harness.ts'
import { startRpcProxy } from '../support/rpc-proxy.ts'
import { TEST_REDIS_URL, needsRedis } from '../support/env.ts'
import { insertSignedTxs } from '../../src/store/chain-txs.ts'

// One devnet for the file; one service in front of it through an RPC proxy that can be cut.
let devnet: TestDevnet
let proxy: Awaited<ReturnType<typeof startRpcProxy>>
const app = useApp({ rpcUrl: async (devnet) => (proxy = await startRpcProxy(devnet.url)).url, env: { INDEXER_POLL_MS: '100' } })
before(() => {
  devnet = app.devnet
})
after(async () => {
  await proxy?.close()
})

async function waitReady(on: Pick<TestApp, 'get'>) {
  let last: InjectResponse | undefined
  for (let i = 0; i < 100; i++) {
    last = await on.get('/readyz')
    if (last.status === 200) return last
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return last!
}

describe('health and readiness', () => {
  test('/healthz answers without asking any dependency', async () => {
    proxy.setMode('fail')
    try {
      const { status, body } = await app.get(`/healthz`)
      assert.equal(status, 200)
      assert.deepEqual(body, { status: 'ok' })
    } finally {
      proxy.setMode('pass')
    }
  })

  test('/readyz is 200 once the database, the RPC and the indexer are ready', async () => {
    const { status, body } = await waitReady(app)
    assert.equal(status, 200, JSON.stringify(body))
    assert.equal(body.status, 'ready')
    // Redis is checked where the service uses it (the PostgreSQL + Redis backend of the matrix).
    const expected = ['database', 'indexer', ...(app.ctx.config.REDIS_URL ? ['redis'] : []), 'rpc']
    assert.deepEqual(Object.keys(body.checks).sort(), expected)
    for (const check of Object.values(body.checks) as any[]) assert.equal(check.ok, true)
    assert.ok(body.checks.indexer.lag <= body.checks.indexer.maxLag)
  })

  test('/readyz is 503 with the error body naming what is not ready when the RPC is down', async () => {
    proxy.setMode('fail')
    try {
      const { status, body, headers } = await app.get(`/readyz`)
      assert.equal(status, 503)
      assert.equal(headers.get('content-type')?.startsWith('application/json'), true)
      assert.equal(body.error.code, 'SERVICE_UNAVAILABLE')
      assert.match(body.error.message, /Not ready: .*rpc/)
      assert.deepEqual(body.error.details.notReady, ['rpc', 'indexer'])
      assert.equal(body.error.details.checks.database.ok, true)
      assert.doesNotMatch(JSON.stringify(body), /127\.0\.0\.1/, 'no upstream URL in the body')
    } finally {
      proxy.setMode('pass')
    }
    assert.equal((await waitReady(app)).status, 200, 'ready again once the RPC answers')
  })

  test('/readyz checks Redis when REDIS_URL is set', { skip: needsRedis }, async () => {
    const withRedis = await app.another({ env: { REDIS_URL: TEST_REDIS_URL!, REDIS_PREFIX: `ops-ready-${process.pid}` } })
    try {
      const { status, body } = await waitReady(withRedis)
      assert.equal(status, 200, JSON.stringify(body))
      assert.equal(body.checks.redis.ok, true)
    } finally {
      await withRedis.stop()
    }
  })
})

describe('/metrics', () => {
  test('counts requests by route pattern and status, with latency, pipeline, RPC, indexer, stream and sender series', async () => {
    await app.get(`/api/metadata/424242`)
    await app.get(`/api/metadata/434343`)
    await app.get(`/api/stats`)
    await app.get(`/no/such/path`)
    const response = await fetch(`${app.url}/metrics`)
    assert.equal(response.status, 200)
    assert.match(response.headers.get('content-type')!, /^text\/plain; version=0\.0\.4/)
    const text = await response.text()
    const value = (pattern: RegExp) => Number(text.match(pattern)?.[1])
    // Two token IDs, one series: the route pattern, never the raw URL.
    assert.equal(value(/^http_requests_total\{method="GET",route="\/api\/metadata\/:tokenId",status="404"\} (\d+)$/m), 2)
    assert.ok(value(/^http_requests_total\{method="GET",route="\/api\/stats",status="200"\} (\d+)$/m) >= 1)
    assert.equal(value(/^http_requests_total\{method="GET",route="unmatched",status="404"\} (\d+)$/m), 1)
    assert.doesNotMatch(text, /424242/)
    assert.match(text, /^http_request_duration_seconds_bucket\{le="0\.005",method="GET",route="\/api\/stats"\} \d+$/m)
    assert.match(text, /^http_request_duration_seconds_count\{method="GET",route="\/api\/metadata\/:tokenId"\} 2$/m)
    assert.equal(value(/^pipeline_owed_submissions (\d+)$/m), 0)
    assert.ok(value(/^rpc_requests_total (\d+)$/m) > 0)
    assert.match(text, /^rpc_errors_total \d+$/m)
    assert.ok(value(/^indexer_lag_blocks (\d+)$/m) <= 100)
    assert.equal(value(/^sse_clients (\d+)$/m), 0)
    assert.match(text, /^# TYPE sender_highest_nonce gauge$/m)
    assert.match(text, /^# TYPE sender_pending_transactions gauge$/m)
    assert.match(text, /^# TYPE pipeline_submissions gauge$/m)
    assert.match(text, /^process_resident_memory_bytes \d+/m)
  })

  test('gives each hot key its own sender series, read from the store at the scrape', async () => {
    // A key that is none of this app's, so its watcher leaves these rows alone.
    const sender = '0x00000000000000000000000000000000000dEaD1' as const
    const signed = (nonce: number) => ({
      idempotencyKey: `metrics-test:${nonce}`, sender, nonce, to: sender, data: '0x' as const, value: 0n,
      rawTx: '0x02' as const, txHash: `0x${nonce.toString(16).padStart(64, '0')}` as const, gasLimit: 21_000n, maxFeePerGas: 1n, maxPriorityFeePerGas: 1n,
    })
    await insertSignedTxs(app.ctx.db, [signed(6), signed(7)])
    const series = async () => (await (await fetch(`${app.url}/metrics`)).text()).split('\n').filter((line) => line.includes(sender))
    assert.deepEqual(await series(), [`sender_highest_nonce{sender="${sender}"} 7`, `sender_pending_transactions{sender="${sender}"} 2`])
    await app.ctx.db.query("UPDATE chain_txs SET status = 'mined' WHERE idempotency_key = 'metrics-test:7'")
    assert.deepEqual(await series(), [`sender_highest_nonce{sender="${sender}"} 7`, `sender_pending_transactions{sender="${sender}"} 1`])
  })

  test('counts the event-stream clients connected', async () => {
    const controller = new AbortController()
    const stream = await fetch(`${app.url}/api/events`, { signal: controller.signal })
    assert.equal(stream.status, 200)
    const text = await (await fetch(`${app.url}/metrics`)).text()
    assert.match(text, /^sse_clients 1$/m)
    controller.abort()
    await stream.body?.cancel().catch(() => {})
  })

  test('counts RPC errors when the RPC fails', async () => {
    const before = Number((await (await fetch(`${app.url}/metrics`)).text()).match(/^rpc_errors_total (\d+)$/m)![1])
    proxy.setMode('fail')
    try {
      await app.get(`/api/wallet?address=0x000000000000000000000000000000000000dEaD`)
    } finally {
      proxy.setMode('pass')
    }
    const after = Number((await (await fetch(`${app.url}/metrics`)).text()).match(/^rpc_errors_total (\d+)$/m)![1])
    assert.ok(after > before, `${after} > ${before}`)
  })

  test('with METRICS_TOKEN, a scrape needs the bearer token', async () => {
    const guarded = await app.another({ env: { METRICS_TOKEN: 'scrape-me-please' } })
    try {
      const refused = await guarded.get(`/metrics`)
      assert.equal(refused.status, 401)
      assert.equal(refused.body.error.code, 'UNAUTHORIZED')
      const wrong = await fetch(`${guarded.url}/metrics`, { headers: { authorization: 'Bearer scrape-me-pleasf' } })
      assert.equal(wrong.status, 401)
      const allowed = await fetch(`${guarded.url}/metrics`, { headers: { authorization: 'Bearer scrape-me-please' } })
      assert.equal(allowed.status, 200)
      assert.match(await allowed.text(), /^# TYPE http_requests_total counter$/m)
    } finally {
      await guarded.stop()
    }
  })
})

describe('logs', () => {
  test('a request with X-PAYMENT and Authorization, and a config with private keys, never print them', async () => {
    const { Writable } = await import('node:stream')
    const { mkdtemp, rm } = await import('node:fs/promises')
    const { tmpdir } = await import('node:os')
    const path = await import('node:path')
    const { loadConfig } = await import('../../src/config/load.ts')
    const { createApp } = await import('../../src/app.ts')
    const { createLogger } = await import('../../src/config/logger.ts')
    const lines: string[] = []
    const destination = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk))
        done()
      },
    })
    const minterKey = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80' // devnet account 0
    const apiKey = 'facilitator-api-key-do-not-print'
    const dataDir = await mkdtemp(path.join(tmpdir(), 'b2c-logs-'))
    const config = loadConfig({ HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'trace', DATA_DIR: dataDir, RPC_URL: devnet.url, MINTER_PRIVATE_KEY: minterKey, FACILITATOR_API_KEY: apiKey })
    const logged = await createApp(config, { log: createLogger('trace', { destination }) })
    try {
      const signature = `0x${'ab'.repeat(65)}`
      const xPayment = Buffer.from(JSON.stringify({ x402Version: 1, scheme: 'exact', network: 'megaeth', payload: { signature, authorization: {} } })).toString('base64')
      const body = { burnTxHash: `0x${'1'.repeat(64)}`, devTxHash: `0x${'2'.repeat(64)}`, burnerAddress: `0x${'3'.repeat(40)}`, image: 'iVBORw0KGgo=' }
      for (const payload of [body, { ...body, paymentPayload: { x402Version: 1, payload: { signature } } }]) {
        await logged.http.inject({ method: 'POST', url: '/api/x402/looksmaxx', payload, headers: { 'x-payment': xPayment, authorization: 'Bearer bearer-secret-value' } })
      }
      // What an error or a careless debug line might carry.
      logged.ctx.log.info({ config: logged.ctx.config, req: { headers: { 'x-payment': xPayment, authorization: 'Bearer bearer-secret-value' } }, body: { paymentPayload: { payload: { signature } } } }, 'debug dump')
      logged.ctx.log.error({ err: Object.assign(new Error('upstream refused'), { request: { headers: { authorization: 'Bearer bearer-secret-value' } }, signature }) }, 'failure')
      const output = lines.join('')
      assert.match(output, /POST \/api\/x402\/looksmaxx/, 'the requests were logged')
      assert.match(output, /debug dump/)
      for (const secretValue of [minterKey, minterKey.slice(2), apiKey, xPayment, signature, 'bearer-secret-value']) {
        assert.equal(output.includes(secretValue), false, `${secretValue.slice(0, 12)}... is not in the logs`)
      }
      assert.match(output, /\[Redacted\]/)
      assert.match(output, /"MINTER_PRIVATE_KEY":"\[secret\]"/)
    } finally {
      await logged.close()
      await rm(dataDir, { recursive: true, force: true })
    }
  })
})
