import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { useApp, type TestApp, type TestDevnet } from '../support/harness.ts'
import { createAgent, portraitBase64 } from '../support/agent.ts'
import { serveFacilitatorHttp } from '../../src/adapters/facilitator/serve-http.ts'
import { createBuiltinFacilitator } from '../../src/adapters/facilitator/builtin.ts'
import { createHttpFacilitator } from '../../src/adapters/facilitator/http.ts'
import { createTxSender } from '../../src/chain/sender/tx-sender.ts'
import { parsePaymentPayload } from '../../src/x402/payload.ts'
import { secret } from '../../src/config/secret.ts'
import { testAccount } from '../support/accounts.ts'

let devnet: TestDevnet
// The facilitator runs as its own service: the built-in one, served over the x402 HTTP API.
const facilitatorApp = useApp()
let app: TestApp
let served: Awaited<ReturnType<typeof serveFacilitatorHttp>>
const API_KEY = 'test-facilitator-key'

before(async () => {
  devnet = facilitatorApp.devnet
  const sender = createTxSender({
    db: facilitatorApp.ctx.db,
    chain: facilitatorApp.ctx.chain,
    account: testAccount(2).account,
    log: facilitatorApp.ctx.log,
  })
  served = await serveFacilitatorHttp(createBuiltinFacilitator({ chain: facilitatorApp.ctx.chain, sender }), { apiKey: API_KEY })
  app = await facilitatorApp.another({ env: { FACILITATOR_URL: served.url, FACILITATOR_API_KEY: API_KEY } })
})
after(async () => {
  await served?.close()
})

test('the service pays through an x402 HTTP facilitator (/verify, /settle with a bearer key)', async () => {
  const agent = await createAgent(app.url, devnet.url, 8)
  await agent.buyTokens('1')
  const { burnTxHash, devTxHash } = await agent.burn()
  const requirements = (await app.get(`/api/x402/looksmaxx`)).body.accepts[0]
  const usdm = await agent.usdmBalance()
  const paymentPayload = await agent.signPayment(requirements)
  const response = await app.post(`/api/x402/looksmaxx`, { burnTxHash, devTxHash, burnerAddress: agent.address, image: await portraitBase64(), paymentPayload })
  assert.equal(response.status, 200, JSON.stringify(response.body))
  assert.equal(usdm - (await agent.usdmBalance()), 10n ** 18n)

  // Settling the same authorization again is not a second transfer: the facilitator answers
  // with its own earlier settlement (idempotent success, same transaction).
  const settlement = JSON.parse(Buffer.from(response.headers.get('x-payment-response')!, 'base64').toString('utf8'))
  const client = createHttpFacilitator({ url: served.url, apiKey: secret(API_KEY) })
  const again = await client.settle(parsePaymentPayload(paymentPayload), requirements)
  assert.equal(again.success, true, 'the facilitator recognizes its own earlier settlement')
  assert.equal((again as { transaction: string }).transaction, settlement.transaction, 'the earlier settlement, not a new one')
  assert.equal(usdm - (await agent.usdmBalance()), 10n ** 18n, 'no second transfer')

  // An authorization for the wrong amount: the refusal is a verdict (success false with
  // its x402 reason), not an error.
  const poor = parsePaymentPayload(await agent.signPayment(requirements, { value: 5n }))
  const refusal = await client.settle(poor, requirements)
  assert.equal(refusal.success, false, 'a bad authorization is a refusal')
  assert.equal((refusal as { errorReason: string }).errorReason, 'invalid_exact_evm_payload_authorization_value')
})

test('a wrong key is an unknown outcome (retryable error), not a verdict', async () => {
  const client = createHttpFacilitator({ url: served.url, apiKey: secret('wrong') })
  const agent = await createAgent(app.url, devnet.url, 9)
  const requirements = (await app.get(`/api/x402/looksmaxx`)).body.accepts[0]
  const payment = parsePaymentPayload(await agent.signPayment(requirements))
  await assert.rejects(client.verify(payment, requirements), (error: any) => error.code === 'UPSTREAM_FAILED' && /401/.test(error.message))
})

test('verify gives the x402 reason for a bad payment', async () => {
  const client = createHttpFacilitator({ url: served.url, apiKey: secret(API_KEY) })
  const agent = await createAgent(app.url, devnet.url, 9)
  const requirements = (await app.get(`/api/x402/looksmaxx`)).body.accepts[0]
  const payment = parsePaymentPayload(await agent.signPayment(requirements, { value: 5n }))
  const result = await client.verify(payment, requirements)
  assert.deepEqual(result, { isValid: false, invalidReason: 'invalid_exact_evm_payload_authorization_value', payer: agent.address })
})
