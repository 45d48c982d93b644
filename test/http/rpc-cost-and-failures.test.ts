import { test, before, after, describe } from 'node:test'
import assert from 'node:assert/strict'
import { useApp, type TestDevnet } from '../support/harness.ts'
import { startRpcProxy } from '../support/rpc-proxy.ts'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'

let devnet: TestDevnet
let proxy: Awaited<ReturnType<typeof startRpcProxy>>
const app = useApp({ rpcUrl: async (devnet) => (proxy = await startRpcProxy(devnet.url)).url })

before(async () => {
  devnet = app.devnet
  // The indexer polls the chain in the background; these tests count the requests of reads.
  await app.ctx.indexer.stop()
})
after(async () => {
  await proxy?.close()
})

describe('each read costs at most one RPC round trip', () => {
  const holder = () => devnet.info.accounts.demoHolder
  const reads = () => ['/api/stats', '/api/price', `/api/wallet?address=${holder()}`, '/api/x402/quote?ethAmount=0.25', '/api/bridge']
  for (const index of [0, 1, 2, 3, 4]) {
    test(`read #${index}`, async () => {
      const path = reads()[index]!
      app.ctx.cache.clear()
      const before = proxy.requests()
      const { status } = await app.get(path)
      assert.equal(status, 200, path)
      const cost = proxy.requests() - before
      assert.ok(cost <= 1, `${path} cost ${cost} RPC requests`)
      const again = proxy.requests()
      await app.get(path)
      assert.equal(proxy.requests() - again, 0, `${path} is served from the cache the second time`)
    })
  }
})

describe('when the RPC fails', () => {
  test('price, stats, wallet and quote answer 502 with the error body and no upstream detail', async () => {
    app.ctx.cache.clear()
    proxy.setMode('fail')
    try {
      for (const path of ['/api/price', '/api/stats', `/api/wallet?address=${devnet.info.accounts.demoHolder}`, '/api/x402/quote?ethAmount=1']) {
        const { status, body, headers } = await app.get(path)
        assert.equal(status, 502, path)
        assert.equal(body.error.code, 'UPSTREAM_FAILED', path)
        // Every 5xx names its request, as the X-Request-Id header and the error log line do.
        assert.match(body.error.details?.requestId ?? '', /^[0-9a-f-]{36}$/, `${path} carries details.requestId`)
        assert.equal(body.error.details.requestId, headers.get('x-request-id'), path)
        assert.ok(!JSON.stringify(body).includes(proxy.url), 'the RPC URL is not leaked')
        assert.ok(!JSON.stringify(body).includes('at '), 'no stack')
      }
    } finally {
      proxy.setMode('pass')
    }
  })
})

describe('when the DEX cannot quote', () => {
  test('quote and price answer 502 DEX_QUOTE_FAILED', async () => {
    // A deployment whose quoter is a contract that reverts every quote (here: the NFT).
    const dir = await mkdtemp(path.join(tmpdir(), 'b2c-contracts-'))
    const file = path.join(dir, 'contracts.json')
    await writeFile(file, JSON.stringify({
      contracts: { ...devnet.info.contracts, quoterV2: devnet.info.contracts.nft },
      fundWallet: devnet.info.accounts.fundWallet,
      facilitator: devnet.info.accounts.facilitator,
    }))
    const broken = await app.another({ env: { CONTRACTS_FILE: file, MINTER_PRIVATE_KEY: `0x${'11'.repeat(32)}`, RELAYER_PRIVATE_KEY: `0x${'12'.repeat(32)}`, FACILITATOR_PRIVATE_KEY: `0x${'13'.repeat(32)}` } })
    try {
      for (const route of ['/api/x402/quote?ethAmount=1', '/api/price']) {
        const { status, body } = await broken.get(route)
        assert.equal(status, 502, route)
        assert.equal(body.error.code, 'DEX_QUOTE_FAILED', route)
        assert.match(body.error.details?.requestId ?? '', /^[0-9a-f-]{36}$/, `${route} carries details.requestId`)
      }
    } finally {
      await broken.stop()
      await rm(dir, { recursive: true, force: true })
    }
  })
})

describe('every 5xx names its request', () => {
  test('a 5xx a handler answers itself (not thrown) also carries details.requestId, without leaking anything else', async () => {
    const { createHttpServer } = await import('../../src/http/server.ts')
    const { defineOperation, respond } = await import('../../src/operations/define.ts')
    const { z } = await import('zod')
    const op = defineOperation({
      id: 'answer_502',
      method: 'GET',
      path: '/test/answer-502',
      summary: 'Answers 502 itself, as the looksmaxx POST does when its NFT is late.',
      tags: ['test'],
      input: z.object({}),
      output: z.object({}),
      errors: ['UPSTREAM_FAILED'],
      handler: async () => respond(502, { error: { code: 'UPSTREAM_FAILED', message: 'Still working.', details: { statusUrl: '/x' } } }),
    })
    const server = createHttpServer(app.ctx, [op] as never, { serving: app.ctx.serving })
    try {
      const response = await server.inject({ method: 'GET', url: '/test/answer-502' })
      const body = response.json()
      assert.equal(response.statusCode, 502)
      assert.equal(body.error.code, 'UPSTREAM_FAILED')
      assert.equal(body.error.details.statusUrl, '/x', 'the handler details are kept')
      assert.equal(body.error.details.requestId, response.headers['x-request-id'])
    } finally {
      await server.close()
    }
  })
})
