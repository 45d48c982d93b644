import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { decodePaymentRequiredHeader, encodePaymentSignatureHeader } from '@x402/core/http'
import { buildApp, testDevnet, releaseDevnet, type TestApp, type TestDevnet } from '../support/harness.ts'
import { createReadyAgent, burnedSubmission } from '../support/agent.ts'
import { startX402Facilitator, type FakeFacilitator } from '../support/x402-facilitators.ts'
import { testAccount } from '../support/accounts.ts'
import { stockPermit2Client } from '../support/x402-clients.ts'

/**
 * The service in front of a settle-only facilitator with a path prefix and a bearer key (the
 * one the reference uses on MegaETH: POST /v1/settle, Authorization: Bearer <key>), settling on
 * the devnet with the official x402 facilitator behind it. Verification, which it does not
 * offer, is done by the service on the chain.
 */
const KEY = 'settle-only-key'
const E18 = 10n ** 18n
let devnet: TestDevnet
let facilitator: FakeFacilitator
let app: TestApp & { stop(): Promise<void> }

before(async () => {
  devnet = await testDevnet()
  facilitator = await startX402Facilitator({ rpcUrl: devnet.url, privateKey: testAccount(2).privateKey, api: 'settle-only', prefix: '/v1', apiKey: KEY })
  app = await buildApp(devnet, {
    env: { FACILITATOR_URL: facilitator.url, FACILITATOR_API: 'settle-only', FACILITATOR_PATH_PREFIX: '/v1', FACILITATOR_API_KEY: KEY, FACILITATOR_TIMEOUT_MS: '3000', RETRY_BASE_MS: '100', WORKER_POLL_MS: '100' },
  })
})
after(async () => {
  await app?.stop()
  await facilitator?.close()
  await releaseDevnet()
})

const readyAgent = (index: number) => createReadyAgent(app.url, devnet.url, index)
const forwarderOffer = async () => (await app.get('/api/x402/looksmaxx')).body.accepts[0]

test('an EIP-3009 payment settles through POST /v1/settle alone, with the bearer key, and is minted once', async () => {
  const agent = await readyAgent(5)
  const body = await burnedSubmission(agent)
  const usdm = await agent.usdmBalance()
  const before = facilitator.requests.length
  const response = await app.post('/api/x402/looksmaxx', { ...body, paymentPayload: await agent.signPayment(await forwarderOffer()) })
  assert.equal(response.status, 200, response.text)
  assert.equal(await agent.ownerOf(BigInt(response.body.tokenId)), agent.address)
  assert.equal(usdm - (await agent.usdmBalance()), E18)
  const sent = facilitator.requests.slice(before)
  assert.deepEqual(sent.map((r) => `${r.method} ${r.path}`), ['POST /v1/settle'], 'no /verify: the service verified on the chain')
  assert.equal(sent[0]!.authorization, `Bearer ${KEY}`)
  assert.deepEqual(Object.keys(sent[0]!.body).sort(), ['paymentPayload', 'paymentRequirements'])
  assert.equal(sent[0]!.body.paymentPayload.x402Version, 1)
})

test('a Permit2 payment of a stock client settles through POST /v1/settle (x402 v2 payload) and is minted once', async () => {
  const agent = await readyAgent(6)
  const body = await burnedSubmission(agent)
  const usdm = await agent.usdmBalance()
  const before = facilitator.requests.length
  const unpaid = await app.post('/api/x402/looksmaxx', body)
  const payload = await stockPermit2Client(agent).createPaymentPayload(decodePaymentRequiredHeader(unpaid.headers.get('payment-required')!))
  const response = await app.post('/api/x402/looksmaxx', body, { 'PAYMENT-SIGNATURE': encodePaymentSignatureHeader(payload) })
  assert.equal(response.status, 200, response.text)
  assert.equal(await agent.nftBalance(), 1n)
  assert.equal(usdm - (await agent.usdmBalance()), E18)
  const sent = facilitator.requests.slice(before)
  assert.deepEqual(sent.map((r) => r.path), ['/v1/settle'])
  assert.equal(sent[0]!.body.paymentPayload.x402Version, 2)
  assert.equal(sent[0]!.body.paymentRequirements.extra.assetTransferMethod, 'permit2')
})

test('a bad payment is refused by the local verification without calling the facilitator', async () => {
  const agent = await readyAgent(7)
  const body = await burnedSubmission(agent)
  const before = facilitator.requests.length
  const offer = await forwarderOffer()
  const good = await agent.signPayment(offer)
  const wrongValue = await agent.signPayment(offer, { value: 5n })
  const refused = await app.post('/api/x402/looksmaxx', { ...body, paymentPayload: wrongValue })
  assert.equal(refused.status, 402)
  assert.match(refused.body.error, /invalid_exact_evm_payload_authorization_value/)
  const forged = await app.post('/api/x402/looksmaxx', { ...body, paymentPayload: { ...good, payload: { ...good.payload, signature: wrongValue.payload.signature } } })
  assert.equal(forged.status, 402)
  assert.match(forged.body.error, /signature/)
  assert.equal(facilitator.requests.length, before, 'the facilitator was not asked')
})

test('a refusal of /v1/settle (HTTP 400 with errorReason) releases the claim: nothing charged, the burns redeemable', async () => {
  const agent = await readyAgent(9)
  const body = await burnedSubmission(agent)
  const usdm = await agent.usdmBalance()
  const offer = await forwarderOffer()
  // The payer spends the authorization's funds between the service's check and the settlement.
  const settle = app.ctx.pipeline.deps.facilitator.settle
  app.ctx.pipeline.deps.facilitator.settle = async (payment, requirements) => {
    const { encodeFunctionData, erc20Abi } = await import('viem')
    await agent.send({ to: agent.contracts.usdm!, data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [agent.contracts.usdmForwarder!, 0n] }) })
    return settle(payment, requirements)
  }
  let refused
  try {
    refused = await app.post('/api/x402/looksmaxx', { ...body, paymentPayload: await agent.signPayment(offer) })
  } finally {
    app.ctx.pipeline.deps.facilitator.settle = settle
  }
  const answer = facilitator.requests.at(-1)!
  assert.equal(answer.path, '/v1/settle')
  assert.equal(answer.status, 400, 'the facilitator refused')
  assert.equal(answer.answer.success, false)
  assert.equal(refused.status, 402, refused.text)
  assert.ok(refused.body.error.includes(answer.answer.errorReason), `the refusal carries the facilitator's reason: ${refused.body.error}`)
  assert.equal(usdm, await agent.usdmBalance(), 'nothing charged')
  const { encodeFunctionData, erc20Abi, maxUint256 } = await import('viem')
  await agent.send({ to: agent.contracts.usdm!, data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [agent.contracts.usdmForwarder!, maxUint256] }) })
  const paid = await app.post('/api/x402/looksmaxx', { ...body, paymentPayload: await agent.signPayment(offer) })
  assert.equal(paid.status, 200, paid.text)
})

test('a settlement whose answer is lost (502 after settling, or no answer before the timeout) is read from the chain', async () => {
  for (const [index, fault] of [[8, 'settle-then-5xx'], [8, 'settle-then-hang']] as const) {
    const agent = await readyAgent(index)
    const body = await burnedSubmission(agent)
    const usdm = await agent.usdmBalance()
    const nfts = await agent.nftBalance()
    facilitator.faults.settle.push(fault)
    const settles = facilitator.requests.filter((r) => r.path === '/v1/settle').length
    const response = await app.post('/api/x402/looksmaxx', { ...body, paymentPayload: await agent.signPayment(await forwarderOffer()) })
    assert.equal(response.status, 200, `${fault}: ${response.text}`)
    assert.equal(facilitator.requests.filter((r) => r.path === '/v1/settle').length - settles, 1, `${fault}: one settle call`)
    assert.equal(usdm - (await agent.usdmBalance()), E18, `${fault}: one transfer`)
    assert.equal((await agent.nftBalance()) - nfts, 1n, `${fault}: one NFT`)
  }
})
