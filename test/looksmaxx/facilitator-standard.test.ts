import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { decodePaymentRequiredHeader, encodePaymentSignatureHeader } from '@x402/core/http'
import { buildApp, testDevnet, releaseDevnet, type TestApp, type TestDevnet } from '../support/harness.ts'
import { createAgent, createReadyAgent, burnedSubmission } from '../support/agent.ts'
import { startX402Facilitator, type FakeFacilitator } from '../support/x402-facilitators.ts'
import { testAccount } from '../support/accounts.ts'
import { stockPermit2Client } from '../support/x402-clients.ts'
import { createHttpFacilitator } from '../../src/adapters/facilitator/http.ts'
import { secret } from '../../src/config/secret.ts'

/**
 * The service in front of a standard x402 facilitator (the official one, @x402/core +
 * @x402/evm, over POST /verify, POST /settle, GET /supported with a bearer key), settling
 * on the devnet: both payment kinds go through the real pipeline, and every answer the API
 * documents (verdicts, 400, 401, 5xx, a lost or late answer) ends as it must.
 */
const KEY = 'standard-facilitator-key'
const E18 = 10n ** 18n
let devnet: TestDevnet
let facilitator: FakeFacilitator
let app: TestApp & { stop(): Promise<void> }

before(async () => {
  devnet = await testDevnet()
  facilitator = await startX402Facilitator({ rpcUrl: devnet.url, privateKey: testAccount(2).privateKey, api: 'standard', apiKey: KEY })
  app = await buildApp(devnet, { env: { FACILITATOR_URL: facilitator.url, FACILITATOR_API_KEY: KEY, FACILITATOR_TIMEOUT_MS: '3000', LOOKSMAXX_WAIT_SECONDS: '30', RETRY_BASE_MS: '100', WORKER_POLL_MS: '100' } })
})
after(async () => {
  await app?.stop()
  await facilitator?.close()
  await releaseDevnet()
})

const readyAgent = (index: number) => createReadyAgent(app.url, devnet.url, index)
const requirements = async () => (await app.get('/api/x402/looksmaxx')).body.accepts
const calls = (path: string) => facilitator.requests.filter((r) => r.path === path)

test('an EIP-3009 payment is verified and settled by the facilitator (x402 v1 bodies, bearer key) and minted once', async () => {
  const agent = await readyAgent(5)
  const body = await burnedSubmission(agent)
  const usdm = await agent.usdmBalance()
  const before = facilitator.requests.length
  const response = await app.post('/api/x402/looksmaxx', { ...body, paymentPayload: await agent.signPayment((await requirements())[0]) })
  assert.equal(response.status, 200, response.text)
  assert.equal(await agent.ownerOf(BigInt(response.body.tokenId)), agent.address)
  assert.equal(usdm - (await agent.usdmBalance()), E18)
  const sent = facilitator.requests.slice(before)
  assert.deepEqual(sent.map((r) => r.path), ['/verify', '/settle'])
  for (const request of sent) {
    assert.equal(request.authorization, `Bearer ${KEY}`)
    assert.equal(request.body.x402Version, 1)
    assert.equal(request.body.paymentPayload.network, 'megaeth')
    assert.equal(request.body.paymentRequirements.maxAmountRequired, '1000000000000000000')
  }
  const receipt = await agent.publicClient.getTransactionReceipt({ hash: response.body.settlementTxHash })
  assert.equal(receipt.from.toLowerCase(), testAccount(2).account.address.toLowerCase(), 'the facilitator sent the settlement')
})

test('a Permit2 payment of a stock client is verified and settled by the facilitator (x402 v2 bodies) and minted once', async () => {
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
  assert.deepEqual(sent.map((r) => r.path), ['/verify', '/settle'])
  for (const request of sent) {
    assert.equal(request.body.x402Version, 2)
    assert.equal(request.body.paymentPayload.accepted.extra.assetTransferMethod, 'permit2')
    assert.equal(request.body.paymentRequirements.network, 'eip155:4326')
    assert.ok(request.body.paymentPayload.payload.permit2Authorization)
    assert.ok(request.body.paymentPayload.extensions.eip2612GasSponsoring, 'the EIP-2612 permit is passed on')
  }
})

test('GET /supported lists what the facilitator settles', async () => {
  const client = createHttpFacilitator({ url: facilitator.url, apiKey: secret(KEY) })
  const supported = await client.supported()
  assert.deepEqual(
    supported!.kinds.map((k) => `${k.x402Version}:${k.scheme}:${k.network}`).sort(),
    ['1:exact:megaeth', '2:exact:eip155:4326'],
  )
})

test('verdicts of /verify refuse the payment with the facilitator\'s reason, and nothing is consumed', async () => {
  const agent = await readyAgent(7)
  const body = await burnedSubmission(agent)
  const [offer] = await requirements()
  // A signature over another amount than the one sent: the facilitator answers isValid false.
  const forged = await agent.signPayment(offer)
  const other = await agent.signPayment(offer, { value: 2n * E18 })
  const badSignature = { ...forged, payload: { ...forged.payload, signature: other.payload.signature } }
  const refused = await app.post('/api/x402/looksmaxx', { ...body, paymentPayload: badSignature })
  assert.equal(refused.status, 402)
  assert.match(refused.body.error, /invalid_exact_evm_signature/)
  // A payer without the USDm: the facilitator's own diagnosis.
  const poor = await createAgent(app.url, devnet.url, 9)
  await poor.send({ to: poor.contracts.usdm!, data: (await import('viem')).encodeFunctionData({ abi: (await import('viem')).erc20Abi, functionName: 'transfer', args: [agent.address, await poor.usdmBalance()] }) })
  const broke = await app.post('/api/x402/looksmaxx', { ...body, paymentPayload: await poor.signPayment(offer), ...(await agent.signRedeem({ ...body, payer: poor.address })) })
  assert.equal(broke.status, 402)
  // The v1 facilitator diagnoses through its simulation of the transfer.
  assert.match(broke.body.error, /insufficient|balance|simulation_failed/)
  // Nothing was claimed: the same burns pay with a good payment.
  const paid = await app.post('/api/x402/looksmaxx', { ...body, paymentPayload: await agent.signPayment(offer) })
  assert.equal(paid.status, 200, paid.text)
})

test('a settlement whose answer is lost (5xx after settling) or late (timeout) is read from the chain, never settled twice', async () => {
  for (const [index, fault] of [[5, 'settle-then-5xx'], [6, 'settle-then-hang']] as const) {
    const agent = await readyAgent(index)
    const body = await burnedSubmission(agent)
    const usdm = await agent.usdmBalance()
    const nfts = await agent.nftBalance()
    const settles = calls('/settle').length
    facilitator.faults.settle.push(fault)
    const response = await app.post('/api/x402/looksmaxx', { ...body, paymentPayload: await agent.signPayment((await requirements())[0]) })
    assert.equal(response.status, 200, `${fault}: ${response.text}`)
    assert.equal(calls('/settle').length - settles, 1, `${fault}: settle was called once`)
    assert.equal(usdm - (await agent.usdmBalance()), E18, `${fault}: one transfer`)
    assert.equal((await agent.nftBalance()) - nfts, 1n, `${fault}: one NFT`)
    const status = await app.get(`/api/x402/looksmaxx/${body.burnTxHash}`)
    assert.match(status.body.steps.find((s: any) => s.step === 'settled').detail.transaction, /^0x[0-9a-f]{64}$/)
  }
})

test('a /verify that fails (401 with a wrong key, 5xx, timeout) is a 502 before anything is claimed', async () => {
  const agent = await readyAgent(8)
  const body = await burnedSubmission(agent)
  const [offer] = await requirements()
  for (const fault of ['refuse-5xx', 'hang'] as const) {
    facilitator.faults.verify.push(fault)
    const failed = await app.post('/api/x402/looksmaxx', { ...body, paymentPayload: await agent.signPayment(offer) })
    assert.equal(failed.status, 502, `${fault}: ${failed.text}`)
    assert.equal(failed.body.error.code, 'UPSTREAM_FAILED')
    assert.doesNotMatch(failed.text, new RegExp(facilitator.url), 'no upstream URL leaks')
  }
  const wrongKey = createHttpFacilitator({ url: facilitator.url, apiKey: secret('wrong') })
  await assert.rejects(wrongKey.verify((await import('../../src/x402/payload.ts')).parsePaymentPayload(await agent.signPayment(offer)), offer), (e: any) => e.code === 'UPSTREAM_FAILED' && /401/.test(e.message))
  assert.equal((await app.get(`/api/x402/looksmaxx/${body.burnTxHash}`)).status, 404, 'nothing was claimed')
  const paid = await app.post('/api/x402/looksmaxx', { ...body, paymentPayload: await agent.signPayment(offer) })
  assert.equal(paid.status, 200, paid.text)
})

test('a malformed request gets 400 {error} from the facilitator, which the adapter reports as no outcome', async () => {
  const response = await fetch(`${facilitator.url}/settle`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: '{"paymentPayload":{}}' })
  assert.equal(response.status, 400)
  assert.match(((await response.json()) as any).error, /paymentRequirements/)
})
