import { test } from 'node:test'
import assert from 'node:assert/strict'
import { wrapFetchWithPaymentFromConfig, decodePaymentResponseHeader } from '@x402/fetch'
import { ExactEvmSchemeV1 } from '@x402/evm/v1'
import { useDevnetApp } from '../support/devnet-app.ts'
import { createAgent, portraitBase64 } from '../support/agent.ts'

const fixture = useDevnetApp()

test('the official x402 fetch client, unchanged, pays the looksmaxx POST and gets an NFT', async () => {
  const agent = await createAgent(fixture.app.url, fixture.devnet.url, 7)
  await agent.buyTokens('1')
  const { burnTxHash, devTxHash } = await agent.burn()
  const usdm = await agent.usdmBalance()

  const payingFetch = wrapFetchWithPaymentFromConfig(fetch, {
    schemes: [{ network: 'megaeth', client: new ExactEvmSchemeV1(agent.account), x402Version: 1 }],
    // The USDm forwarder is not one of the client's default assets: allow it explicitly.
    spendControls: { allowedAssets: [{ network: 'megaeth', asset: fixture.devnet.info.contracts.usdmForwarder, maxAmountPerPayment: '1000000000000000000' }] },
  } as unknown as Parameters<typeof wrapFetchWithPaymentFromConfig>[1])

  const response = await payingFetch(`${fixture.app.url}/api/x402/looksmaxx`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ burnTxHash, devTxHash, burnerAddress: agent.address, image: await portraitBase64(), imageType: 'image/jpeg' }),
  })
  const body = (await response.json()) as any
  assert.equal(response.status, 200, JSON.stringify(body))
  assert.equal(await agent.ownerOf(BigInt(body.tokenId)), agent.address)
  assert.equal(usdm - (await agent.usdmBalance()), 10n ** 18n)
  const settlement = decodePaymentResponseHeader(response.headers.get('x-payment-response')!)
  assert.equal(settlement.success, true)
})
