import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { testDevnet, releaseDevnet, buildApp, type TestApp, type TestDevnet } from '../support/harness.ts'
import { createAgent, portraitBase64, type Agent } from '../support/agent.ts'
import { looksmaxxBody, generateBody, burnOf } from '../support/builders.ts'
import { startRpcProxy } from '../support/rpc-proxy.ts'

/**
 * Cases the older suites did not exercise: the body limit, the 400s of /api/generate and of
 * the cross-chain intent, the looksmaxx 502 (with its request id) when the RPC fails, and one
 * payment authorization reused for a second burn, end to end.
 */
const E18 = 10n ** 18n
// Acquired in the one before hook: the proxy needs the devnet's URL before the app is built.
let devnet: TestDevnet
let proxy: Awaited<ReturnType<typeof startRpcProxy>>
let app: TestApp & { stop(): Promise<void> }
let image: string
let requirements: any
let agent: Agent

before(async () => {
  devnet = await testDevnet()
  // The service reads the chain through a proxy a test can make fail.
  proxy = await startRpcProxy(devnet.url)
  app = await buildApp(devnet, { rpcUrl: () => proxy.url, env: { RETRY_BASE_MS: '100', RETRY_MAX_MS: '400', WORKER_POLL_MS: '50', LOOKSMAXX_WAIT_SECONDS: '30' } })
  image = await portraitBase64()
  requirements = (await app.get('/api/x402/looksmaxx')).body.accepts[0]
  // Accounts 4-9 hold USDm and have approved the forwarder (docs/agents/devnet.md, Devnet accounts).
  agent = await createAgent(app.url, devnet.url, 8)
  await agent.buyTokens('3')
})
after(async () => {
  await app?.stop()
  await proxy?.close()
  await releaseDevnet()
})

const errorOf = (response: { status: number; body: any }, status: number, code: string) => {
  assert.equal(response.status, status, JSON.stringify(response.body))
  assert.equal(response.body?.error?.code, code, JSON.stringify(response.body))
}

test('a body over the 7 MiB limit is 413 PAYLOAD_TOO_LARGE, before anything is read', async () => {
  const payload = JSON.stringify({ image: 'A'.repeat(7 * 1024 * 1024 + 1) })
  const response = await app.request('POST', '/api/x402/looksmaxx', { payload, headers: { 'content-type': 'application/json' } })
  errorOf(response, 413, 'PAYLOAD_TOO_LARGE')
})

test('/api/generate: 400 with its code for a missing field, a bad address and a bad signature', async () => {
  errorOf(await app.post('/api/generate', {}), 400, 'INVALID_INPUT')
  const hash = `0x${'ab'.repeat(32)}`
  const base = { burnTxHash: hash, devTxHash: hash, burnerAddress: agent.address, image, burnerSignature: `0x${'11'.repeat(65)}`, burnerDeadline: Math.floor(Date.now() / 1000) + 600 }
  const badAddress = await app.post('/api/generate', { ...base, burnerAddress: '0x12' })
  errorOf(badAddress, 400, 'INVALID_ADDRESS')
  const badHash = await app.post('/api/generate', { ...base, burnTxHash: '0x12' })
  errorOf(badHash, 400, 'INVALID_INPUT')
})

test('the cross-chain intent: 400 UNKNOWN_CHAIN, INVALID_ADDRESS and a bad amount', async () => {
  errorOf(await app.get(`/api/cross-chain/intent?sourceChain=narnia&wallet=${agent.address}&amount=0.5`), 400, 'UNKNOWN_CHAIN')
  errorOf(await app.get('/api/cross-chain/intent?sourceChain=base&wallet=0x12&amount=0.5'), 400, 'INVALID_ADDRESS')
  const amount = await app.get(`/api/cross-chain/intent?sourceChain=base&wallet=${agent.address}&amount=lots`)
  assert.equal(amount.status, 400, JSON.stringify(amount.body))
  assert.equal(amount.body.error.code, 'INVALID_AMOUNT')
  assert.equal(amount.body.error.details?.field, 'amount')
  // Well formed, but beyond any pool: refused naming this input, not the plan's ethAmount.
  const huge = await app.get(`/api/cross-chain/intent?sourceChain=base&wallet=${agent.address}&amount=1${'0'.repeat(40)}`)
  errorOf(huge, 400, 'INVALID_AMOUNT')
  assert.equal(huge.body.error.details?.field, 'amount')
  errorOf(await app.get(`/api/cross-chain/intent?wallet=${agent.address}`), 400, 'INVALID_INPUT')
})

test('the RPC failing during a looksmaxx: 502 UPSTREAM_FAILED with the request id, nothing charged; then it succeeds', async () => {
  const burn = await burnOf(agent)
  const usdm = await agent.usdmBalance()
  const body = await looksmaxxBody(agent, burn, { image, requirements })
  proxy.setMode('fail')
  let failed
  try {
    failed = await app.post('/api/x402/looksmaxx', body)
  } finally {
    proxy.setMode('pass')
  }
  errorOf(failed, 502, 'UPSTREAM_FAILED')
  assert.ok(failed.headers.get('x-request-id'), 'the answer names its request')
  assert.equal(failed.body.error.details.requestId, failed.headers.get('x-request-id'))
  assert.equal(await agent.usdmBalance(), usdm, 'nothing charged')
  const retried = await app.post('/api/x402/looksmaxx', body)
  assert.equal(retried.status, 200, JSON.stringify(retried.body))
  assert.equal(await agent.ownerOf(BigInt(retried.body.tokenId)), agent.address)
})

test('one payment authorization reused for a second burn is refused and charges nothing more', async () => {
  const first = await burnOf(agent)
  const paid = await looksmaxxBody(agent, first, { image, requirements })
  const ok = await app.post('/api/x402/looksmaxx', paid)
  assert.equal(ok.status, 200, JSON.stringify(ok.body))
  const usdm = await agent.usdmBalance()
  const nfts = await agent.nftBalance()
  if ((await agent.coinBalance()) < 225_000n * E18) await agent.buyTokens('2')
  const second = await burnOf(agent)
  const reused = await app.post('/api/x402/looksmaxx', { ...paid, burnTxHash: second.burnTxHash, devTxHash: second.devTxHash })
  assert.equal(reused.status, 402, JSON.stringify(reused.body))
  assert.match(JSON.stringify(reused.body.error), /nonce|used|authorization/i)
  assert.equal(await agent.usdmBalance(), usdm, 'no second charge')
  assert.equal(await agent.nftBalance(), nfts, 'no second NFT')
  assert.equal((await app.get(`/api/x402/looksmaxx/${second.burnTxHash}`)).status, 404, 'the second burn is not held by a claim')
  // The second burn stays redeemable with a payment of its own.
  const fresh = await app.post('/api/x402/looksmaxx', await looksmaxxBody(agent, second, { image, requirements }))
  assert.equal(fresh.status, 200, JSON.stringify(fresh.body))
})

test('generate body builder: a burner redeems its burns on /api/generate', async () => {
  if ((await agent.coinBalance()) < 225_000n * E18) await agent.buyTokens('2')
  const burn = await burnOf(agent)
  const response = await app.post('/api/generate', await generateBody(agent, burn, { image }))
  assert.equal(response.status, 200, JSON.stringify(response.body))
  assert.equal(await agent.ownerOf(BigInt(response.body.tokenId)), agent.address)
})
