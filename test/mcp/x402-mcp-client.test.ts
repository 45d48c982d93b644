import { test, after } from 'node:test'
import assert from 'node:assert/strict'
import { readFile, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { decodeSignedOffers, verifyOfferSignatureEIP712, verifyReceiptMatchesOffer, verifyReceiptSignatureEIP712 } from '@x402/extensions/offer-receipt'
import { validateDiscoveryExtension } from '@x402/extensions/bazaar'
import { useApp } from '../support/harness.ts'
import { createAgent, portraitBase64 } from '../support/agent.ts'

/**
 * A client that follows coinbase/x402 specs/transports-v2/mcp.md (x402 v2) to the letter, built
 * only from the MCP SDK's Client, @x402/core's x402Client and @x402/evm's exact scheme: the
 * example of docs/agents/mcp-payments.md, run as written.
 */
const app = useApp()
const here = path.dirname(fileURLToPath(import.meta.url))
const E18 = 10n ** 18n

async function runDocExample(inputs: Record<string, unknown>) {
  const doc = await readFile(path.join(here, '../../docs/agents/mcp-payments.md'), 'utf8')
  const snippet = /<!-- mcp-paid-tool:start -->\n```ts\n([\s\S]*?)```\n<!-- mcp-paid-tool:end -->/.exec(doc)?.[1]
  assert.ok(snippet, 'docs/agents/mcp-payments.md has the example')
  const declared = Object.entries(inputs).map(([name, value]) => `const ${name} = ${JSON.stringify(value)}\n`).join('')
  // Beside this test, so that it resolves the same packages.
  const file = path.join(here, `.mcp-paid-tool-${process.pid}.ts`)
  await writeFile(file, `${declared}${snippet}\nexport { unpaid, paymentRequired, payment, paid, result, settlement, receipt }\n`)
  try {
    return await import(pathToFileURL(file).href)
  } finally {
    await rm(file, { force: true })
  }
}

test('the documented spec client pays submit_looksmaxx over MCP; offers, receipt and bazaar are where the extensions say', async () => {
  const agent = await createAgent(app.url, app.devnet.url, 8)
  await agent.buyTokens('1')
  const { burnTxHash, devTxHash } = await agent.burn()
  const usdm = await agent.usdmBalance()
  const mcpUrl = `${app.url}/api/mcp`
  const key = (await app.get('/api/agent')).body.receipts.signer

  const ran = await runDocExample({
    SERVICE_URL: app.url,
    PRIVATE_KEY: agent.privateKey,
    USDM_FORWARDER: agent.contracts.usdmForwarder,
    ARGS: { burnTxHash, devTxHash, burnerAddress: agent.address, image: await portraitBase64(), imageType: 'image/jpeg' },
  })

  // The payment request, as the spec signals it.
  assert.equal(ran.unpaid.isError, true)
  assert.deepEqual(JSON.parse(ran.unpaid.content[0].text), ran.unpaid.structuredContent)
  const required = ran.paymentRequired
  assert.equal(required.x402Version, 2)
  assert.equal(required.resource.url, mcpUrl)
  assert.equal(required.accepts[0].network, 'eip155:4326')
  const bazaar = required.extensions.bazaar
  assert.deepEqual(validateDiscoveryExtension(bazaar), { valid: true })
  assert.equal(bazaar.info.input.type, 'mcp')
  assert.equal(bazaar.info.input.toolName, 'submit_looksmaxx')
  const tools = await listTools()
  assert.deepEqual(bazaar.info.input.inputSchema, tools.find((t: any) => t.name === 'submit_looksmaxx').inputSchema, 'the tool\'s own inputSchema')
  const [offer] = decodeSignedOffers(required.extensions['offer-receipt'].info.offers)
  assert.equal((await verifyOfferSignatureEIP712(offer!.signedOffer as never)).signer, key)
  assert.equal(offer!.resourceUrl, mcpUrl)
  assert.equal(ran.payment.x402Version, 2)

  // Paid: the NFT, exactly 1 USDm, the settlement in _meta with the receipt where offer-receipt puts it.
  assert.equal(ran.result.success, true)
  assert.equal(await agent.ownerOf(BigInt(ran.result.tokenId)), agent.address)
  assert.equal(usdm - (await agent.usdmBalance()), E18)
  assert.deepEqual(
    { success: ran.settlement.success, network: ran.settlement.network, payer: ran.settlement.payer, transaction: ran.settlement.transaction },
    { success: true, network: 'eip155:4326', payer: agent.address, transaction: ran.result.settlementTxHash },
  )
  assert.deepEqual(ran.receipt, ran.result.receipts.x402)
  assert.equal((await verifyReceiptSignatureEIP712(ran.receipt)).signer, key)
  assert.equal(ran.receipt.payload.resourceUrl, mcpUrl)
  assert.equal(verifyReceiptMatchesOffer(ran.receipt, offer!, [agent.address]), true, 'the receipt matches the accepted offer')

  // Read back later over HTTP (either hash): the same receipts.
  const status = await app.get(`/api/x402/looksmaxx/${devTxHash}`)
  assert.deepEqual(status.body.result.receipts, ran.result.receipts)
  const document = await app.get(`/api/x402/looksmaxx/${burnTxHash}/receipt`)
  assert.deepEqual(document.body, ran.result.receipts)
})

test('over MCP a malformed or mismatched payment is answered with the PaymentRequired and the reason; nothing is consumed', async () => {
  const agent = await createAgent(app.url, app.devnet.url, 9)
  await agent.buyTokens('1')
  const { burnTxHash, devTxHash } = await agent.burn()
  const args = { burnTxHash, devTxHash, burnerAddress: agent.address, image: await portraitBase64(), imageType: 'image/jpeg' }
  const mcp = new Client({ name: 'careless-agent', version: '1.0.0' })
  after(() => mcp.close())
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${app.url}/api/mcp`)))
  const usdm = await agent.usdmBalance()
  const malformed = (await mcp.callTool({ name: 'submit_looksmaxx', arguments: args, _meta: { 'x402/payment': { x402Version: 2, accepted: {}, payload: {} } } })) as any
  assert.equal(malformed.isError, true)
  assert.equal(malformed.structuredContent.x402Version, 2)
  assert.match(malformed.structuredContent.error, /payment payload/i)
  assert.deepEqual(JSON.parse(malformed.content[0].text), malformed.structuredContent)
  const required = malformed.structuredContent
  const mismatched = (await mcp.callTool({
    name: 'submit_looksmaxx',
    arguments: args,
    _meta: { 'x402/payment': { x402Version: 2, resource: required.resource, accepted: { ...required.accepts[0], amount: '1' }, payload: { signature: `0x${'11'.repeat(65)}`, authorization: { from: agent.address, to: required.accepts[0].payTo, value: '1', validAfter: '0', validBefore: String(Math.floor(Date.now() / 1000) + 60), nonce: `0x${'22'.repeat(32)}` } } } },
  })) as any
  assert.equal(mismatched.isError, true)
  assert.match(mismatched.structuredContent.error, /differ from the offer at amount/)
  assert.equal(await agent.usdmBalance(), usdm)
  assert.equal(await agent.nftBalance(), 0n)
  // The burns are still redeemable.
  assert.equal((await app.get(`/api/x402/looksmaxx/${burnTxHash}`)).status, 404)
})

async function listTools() {
  const mcp = new Client({ name: 'lister', version: '1.0.0' })
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${app.url}/api/mcp`)))
  const { tools } = await mcp.listTools()
  await mcp.close()
  return tools as any[]
}
