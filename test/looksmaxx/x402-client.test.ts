import { test } from 'node:test'
import assert from 'node:assert/strict'
import { x402Client, x402HTTPClient, decodePaymentResponseHeader } from '@x402/fetch'
import { ExactEvmSchemeV1 } from '@x402/evm/v1'
import { useApp } from '../support/harness.ts'
import { createAgent, portraitBase64 } from '../support/agent.ts'

const app = useApp()

// @x402/fetch reads the v2 PAYMENT-REQUIRED header first (see x402-v2.test.ts); a v1 client
// reads the spec's body. This is the official client's v1 scheme on the v1 wire: the payload
// signed from the body's requirements, sent in X-PAYMENT, the settlement in X-PAYMENT-RESPONSE.
test('the official x402 client, v1 scheme, pays the looksmaxx POST with X-PAYMENT and gets an NFT', async () => {
  const agent = await createAgent(app.url, app.devnet.url, 7)
  await agent.buyTokens('1')
  const { burnTxHash, devTxHash } = await agent.burn()
  const usdm = await agent.usdmBalance()
  const client = new x402Client()
    .registerV1('megaeth', new ExactEvmSchemeV1(agent.account))
    // The USDm forwarder is not one of the client's default assets: allow it explicitly. For a
    // v1 requirement the entry names the v1 network (the type only knows CAIP-2 names).
    .setSpendControls({ allowedAssets: [{ network: 'megaeth' as `${string}:${string}`, asset: app.devnet.info.contracts.usdmForwarder, maxAmountPerPayment: '1000000000000000000' }] })
  const http = new x402HTTPClient(client)

  const url = `${app.url}/api/x402/looksmaxx`
  const init = {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ burnTxHash, devTxHash, burnerAddress: agent.address, image: await portraitBase64(), imageType: 'image/jpeg' }),
  }
  const unpaid = await fetch(url, init)
  assert.equal(unpaid.status, 402)
  const required = http.getPaymentRequiredResponse(() => null, await unpaid.json())
  assert.equal(required.x402Version, 1)
  const headers = http.encodePaymentSignatureHeader(await client.createPaymentPayload(required))
  assert.deepEqual(Object.keys(headers), ['X-PAYMENT'])

  const response = await fetch(url, { ...init, headers: { ...init.headers, ...headers } })
  const body = (await response.json()) as any
  assert.equal(response.status, 200, JSON.stringify(body))
  assert.equal(await agent.ownerOf(BigInt(body.tokenId)), agent.address)
  assert.equal(usdm - (await agent.usdmBalance()), 10n ** 18n)
  const settlement = decodePaymentResponseHeader(response.headers.get('x-payment-response')!)
  assert.equal(settlement.success, true)
  assert.equal(settlement.network, 'megaeth')
})
