import { test, after } from 'node:test'
import assert from 'node:assert/strict'
import { readFile, writeFile, rm } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { x402Client } from '@x402/fetch'
import { decodePaymentRequiredHeader, decodePaymentResponseHeader, encodePaymentSignatureHeader } from '@x402/core/http'
import { registerExactEvmScheme } from '@x402/evm/exact/client'
import { appendPaymentIdentifierToExtensions, declarePaymentIdentifierExtension, generatePaymentId } from '@x402/extensions/payment-identifier'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { useApp } from '../support/harness.ts'
import { type Agent, createReadyAgent, burnedSubmission } from '../support/agent.ts'

const app = useApp()
const here = path.dirname(fileURLToPath(import.meta.url))
const E18 = 10n ** 18n

/** The x402 v2 client of docs/agents/looksmaxx.md: the default EVM scheme, the USDm forwarder allowed. */
function payingClient(agent: Agent) {
  const client = new x402Client()
  registerExactEvmScheme(client, { signer: agent.account })
  client.setSpendControls({ allowedAssets: [{ network: 'eip155:4326', asset: agent.contracts.usdmForwarder! }] })
  return client
}

const readyAgent = (index: number) => createReadyAgent(app.url, app.devnet.url, index)


/** The v2 PaymentRequired of an unpaid POST, as the client reads it. */
async function unpaidPost(body: unknown) {
  const response = await fetch(`${app.url}/api/x402/looksmaxx`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  assert.equal(response.status, 402)
  return decodePaymentRequiredHeader(response.headers.get('payment-required')!)
}

function paidPost(body: unknown, headers: Record<string, string>) {
  return fetch(`${app.url}/api/x402/looksmaxx`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })
}

test('the 402 speaks v1 in the body and v2 in PAYMENT-REQUIRED, with the payment-identifier extension', async () => {
  const response = await fetch(`${app.url}/api/x402/looksmaxx`)
  assert.equal(response.status, 402)
  const body = (await response.json()) as any
  assert.equal(body.x402Version, 1)
  assert.equal(body.accepts[0].network, 'megaeth')
  assert.equal(response.headers.get('x-402-version'), '1')
  const required = decodePaymentRequiredHeader(response.headers.get('payment-required')!)
  assert.equal(required.x402Version, 2)
  assert.equal(required.resource.url, `${app.url}/api/x402/looksmaxx`)
  // The forwarder option first (what accepts[0] has always been), then Permit2 (permit2.test.ts).
  assert.equal(required.accepts.length, 2)
  assert.deepEqual(required.accepts[0], {
    scheme: 'exact',
    network: 'eip155:4326',
    amount: '1000000000000000000',
    asset: body.accepts[0].asset,
    payTo: body.accepts[0].payTo,
    maxTimeoutSeconds: body.accepts[0].maxTimeoutSeconds,
    extra: { name: 'USDm Forwarder', version: '1' },
  })
  // The declaration is the extension package's own.
  assert.deepEqual(required.extensions?.['payment-identifier'], declarePaymentIdentifierExtension())
})

test('@x402/fetch pays a looksmaxx through the forwarder exactly as docs/agents/looksmaxx.md shows it (v2)', async () => {
  const page = await readFile(path.join(here, '../../docs/agents/looksmaxx.md'), 'utf8')
  const snippet = /<!-- x402-client-snippet:start -->\n```ts\n([\s\S]*?)```\n<!-- x402-client-snippet:end -->/.exec(page)?.[1]
  assert.ok(snippet, 'docs/agents/looksmaxx.md has the x402 client snippet')
  const agent = await readyAgent(5)
  const { burnTxHash, devTxHash, image } = await burnedSubmission(agent)
  const usdm = await agent.usdmBalance()
  const privateKey = agent.privateKey
  // The snippet as written, with its inputs declared before it; a module beside this test so
  // that it resolves the same packages.
  const file = path.join(here, `.docs-x402-snippet-${process.pid}.ts`)
  const inputs = `const SERVICE_URL = ${JSON.stringify(app.url)}\nconst PRIVATE_KEY = ${JSON.stringify(privateKey)}\nconst burnTxHash = ${JSON.stringify(burnTxHash)}\nconst devTxHash = ${JSON.stringify(devTxHash)}\nconst image = ${JSON.stringify(image)}\n`
  await writeFile(file, `${inputs}${snippet}\nexport { response, result, settlement }\n`)
  let ran: { response: Response; result: any; settlement: any }
  try {
    ran = await import(pathToFileURL(file).href)
  } finally {
    await rm(file, { force: true })
  }
  assert.equal(ran.response.status, 200, JSON.stringify(ran.result))
  assert.equal(ran.result.success, true)
  assert.equal(await agent.ownerOf(BigInt(ran.result.tokenId)), agent.address)
  assert.equal(usdm - (await agent.usdmBalance()), E18)
  assert.equal(ran.settlement.success, true)
  assert.equal(ran.settlement.network, 'eip155:4326')
  assert.equal(ran.settlement.payer, agent.address)
  assert.equal(ran.settlement.transaction, ran.result.settlementTxHash)
})

test('the same payment identifier with the same payload returns the first result; with another payload 409', async () => {
  const agent = await readyAgent(6)
  const body = await burnedSubmission(agent)
  const client = payingClient(agent)
  const paymentId = generatePaymentId()
  client.onBeforePaymentCreation(async ({ paymentRequired }) => {
    appendPaymentIdentifierToExtensions(paymentRequired.extensions!, paymentId)
  })
  const required = await unpaidPost(body)
  const payload = await client.createPaymentPayload(required)
  assert.equal((payload.extensions?.['payment-identifier'] as any).info.id, paymentId)
  const header = { 'PAYMENT-SIGNATURE': encodePaymentSignatureHeader(payload) }
  const usdm = await agent.usdmBalance()

  const first = await paidPost(body, header)
  const firstBody = (await first.json()) as any
  assert.equal(first.status, 200, JSON.stringify(firstBody))
  const again = await paidPost(body, header)
  const againBody = (await again.json()) as any
  assert.equal(again.status, 200, JSON.stringify(againBody))
  assert.deepEqual(againBody, firstBody)
  assert.deepEqual(decodePaymentResponseHeader(again.headers.get('payment-response')!), decodePaymentResponseHeader(first.headers.get('payment-response')!))
  assert.equal(await agent.nftBalance(), 1n)
  assert.equal(usdm - (await agent.usdmBalance()), E18)

  // Same identifier, a new signature (another nonce): a different payload.
  const other = await client.createPaymentPayload(await unpaidPost(body))
  assert.equal((other.extensions?.['payment-identifier'] as any).info.id, paymentId)
  const conflict = await paidPost(body, { 'PAYMENT-SIGNATURE': encodePaymentSignatureHeader(other) })
  assert.equal(conflict.status, 409)
  const conflictBody = (await conflict.json()) as any
  assert.equal(conflictBody.error.code, 'PAYMENT_ID_CONFLICT')
  assert.match(conflictBody.error.message, /another payment/)
  assert.equal(await agent.nftBalance(), 1n)
  assert.equal(usdm - (await agent.usdmBalance()), E18)
})

test('one authorization sent as v1 and again as v2 pays for one portrait only', async () => {
  const agent = await readyAgent(7)
  await agent.buyTokens('1')
  const first = await burnedSubmission(agent)
  const second = await burnedSubmission(agent)
  const payload = await payingClient(agent).createPaymentPayload(await unpaidPost(first))
  // The same signed authorization in the v1 envelope.
  const v1 = { x402Version: 1, scheme: 'exact', network: 'megaeth', payload: payload.payload }
  const usdm = await agent.usdmBalance()

  const paidV1 = await paidPost(first, { 'X-PAYMENT': Buffer.from(JSON.stringify(v1)).toString('base64') })
  assert.equal(paidV1.status, 200, await paidV1.clone().text())
  assert.ok(paidV1.headers.get('x-payment-response'))
  const replayV2 = await paidPost(second, { 'PAYMENT-SIGNATURE': encodePaymentSignatureHeader(payload) })
  assert.equal(replayV2.status, 402)
  const refused = decodePaymentRequiredHeader(replayV2.headers.get('payment-required')!)
  assert.match(refused.error ?? '', /nonce_already_used|already paid/)
  assert.equal(await agent.nftBalance(), 1n)
  assert.equal(usdm - (await agent.usdmBalance()), E18)
  // The second burn is still redeemable with a fresh payment.
  const fresh = await payingClient(agent).createPaymentPayload(await unpaidPost(second))
  const paidV2 = await paidPost(second, { 'PAYMENT-SIGNATURE': encodePaymentSignatureHeader(fresh) })
  assert.equal(paidV2.status, 200, await paidV2.clone().text())
  assert.equal(await agent.nftBalance(), 2n)
})

test('an MCP client completes a paid looksmaxx: requirements as a tool error, payment in _meta', async () => {
  const agent = await readyAgent(8)
  const body = await burnedSubmission(agent)
  const mcp = new Client({ name: 'paying-agent', version: '1.0.0' })
  after(() => mcp.close())
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${app.url}/api/mcp`)))
  // Listing the tools makes the SDK validate structured content against the output schemas.
  assert.equal((await mcp.listTools()).tools.length, 32)

  const unpaid = (await mcp.callTool({ name: 'submit_looksmaxx', arguments: body })) as any
  assert.equal(unpaid.isError, true)
  const required = unpaid.structuredContent
  assert.equal(required.x402Version, 2)
  assert.equal(required.accepts[0].network, 'eip155:4326')
  assert.deepEqual(JSON.parse(unpaid.content[0].text), required)

  const usdm = await agent.usdmBalance()
  const payment = await payingClient(agent).createPaymentPayload(required)
  const paid = (await mcp.callTool({ name: 'submit_looksmaxx', arguments: body, _meta: { 'x402/payment': payment } })) as any
  assert.equal(paid.isError, undefined, paid.content?.[0]?.text)
  assert.equal(paid.structuredContent.success, true)
  assert.equal(await agent.ownerOf(BigInt(paid.structuredContent.tokenId)), agent.address)
  const settlement = paid._meta['x402/payment-response']
  assert.equal(settlement.success, true)
  assert.equal(settlement.network, 'eip155:4326')
  assert.equal(settlement.transaction, paid.structuredContent.settlementTxHash)
  assert.equal(usdm - (await agent.usdmBalance()), E18)
})
