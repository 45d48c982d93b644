import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFile, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { getAddress, keccak256, toBytes, verifyTypedData, type Hex } from 'viem'
import { x402Client } from '@x402/core/client'
import { decodePaymentRequiredHeader, decodePaymentResponseHeader, encodePaymentSignatureHeader } from '@x402/core/http'
import { registerExactEvmScheme } from '@x402/evm/exact/client'
import { verifyOfferSignatureEIP712, verifyReceiptSignatureEIP712, canonicalize } from '@x402/extensions/offer-receipt'
import { validateDiscoveryExtension } from '@x402/extensions/bazaar'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { useApp } from '../support/harness.ts'
import { claimSubmission } from '../../src/store/submissions.ts'
import { type Agent, createReadyAgent, burnedSubmission } from '../support/agent.ts'

const app = useApp()
const here = path.dirname(fileURLToPath(import.meta.url))
const E18 = 10n ** 18n

/** The key the service publishes, read where an agent reads it: the agent index and the ERC-8004 registration. */
async function publishedKey(): Promise<Hex> {
  const index = await app.get('/api/agent')
  const registration = await app.get('/.well-known/agent-registration.json')
  assert.equal(index.body.receipts.signer, registration.body.receipts.signer, 'one key in both places')
  assert.equal(index.body.receipts.kid, `did:pkh:eip155:4326:${index.body.receipts.signer}`)
  return index.body.receipts.signer
}

const readyAgent = (index: number) => createReadyAgent(app.url, app.devnet.url, index)


function payer(agent: Agent) {
  const client = new x402Client()
  registerExactEvmScheme(client, { signer: agent.account })
  client.setSpendControls({ allowedAssets: [{ network: 'eip155:4326', asset: agent.contracts.usdmForwarder! }] })
  return client
}

/** Verifies the delivery receipt with viem and the types the service publishes. */
async function deliveryValid(receipt: any, signer: Hex) {
  const schema = (await app.get('/.well-known/receipts.json')).body
  return verifyTypedData({ address: signer, domain: schema.delivery.domain, types: schema.delivery.types, primaryType: 'DeliveryReceipt', message: receipt.payload, signature: receipt.signature })
}

async function x402Valid(receipt: any, signer: Hex) {
  const schema = (await app.get('/.well-known/receipts.json')).body
  return verifyTypedData({ address: signer, domain: schema.x402.receipt.domain, types: schema.x402.receipt.types, primaryType: 'Receipt', message: receipt.payload, signature: receipt.signature })
}

/** Every leaf of a JSON value, as [path, value]. */
function leaves(value: unknown, path: string[] = []): Array<[string[], unknown]> {
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => leaves(v, [...path, k]))
  return [[path, value]]
}

function withLeaf(value: any, path: string[], leaf: unknown): any {
  const copy = structuredClone(value)
  let at = copy
  for (const key of path.slice(0, -1)) at = at[key]
  at[path.at(-1)!] = leaf
  return copy
}

/** A different value of the same kind: what a forger would write into a field. */
function tampered(leaf: unknown): unknown {
  if (typeof leaf === 'number') return leaf + 1
  if (typeof leaf !== 'string') throw new Error(`unexpected leaf ${String(leaf)}`)
  if (/^0x[0-9a-fA-F]{40}$/.test(leaf)) return getAddress(`0x${(BigInt(leaf) ^ 1n).toString(16).padStart(40, '0')}`)
  if (/^0x[0-9a-fA-F]{64}$/.test(leaf)) return `0x${(BigInt(leaf) ^ 1n).toString(16).padStart(64, '0')}`
  if (/^\d+$/.test(leaf)) return (BigInt(leaf) + 1n).toString()
  return `${leaf}x`
}

test('the 402 carries offers signed by the published key and a bazaar declaration a facilitator accepts', async () => {
  const key = await publishedKey()
  const response = await app.get('/api/x402/looksmaxx')
  assert.equal(response.status, 402)
  const required = decodePaymentRequiredHeader(response.headers.get('payment-required')!)
  // One signed offer per way to pay (the forwarder and Permit2), each naming its accepts entry.
  const offers = (required.extensions!['offer-receipt'] as any).info.offers
  assert.equal(offers.length, required.accepts.length)
  for (const [i, offer] of offers.entries()) {
    const { signer, payload } = await verifyOfferSignatureEIP712(offer)
    assert.equal(signer, key)
    const accepted = required.accepts[offer.acceptIndex ?? i]!
    assert.deepEqual(
      { resourceUrl: payload.resourceUrl, scheme: payload.scheme, network: payload.network, asset: payload.asset, payTo: payload.payTo, amount: payload.amount },
      { resourceUrl: required.resource.url, scheme: accepted.scheme, network: accepted.network, asset: accepted.asset, payTo: accepted.payTo, amount: accepted.amount },
    )
    assert.ok(payload.validUntil > Date.now() / 1000, 'the offer is still valid')
  }
  // The v1 body carries the same signed offers (x402 v1 form of the extension).
  assert.deepEqual(response.body.extensions['offer-receipt'].info.offers, offers)
  // bazaar: valid against its own schema, as a facilitator checks before cataloguing.
  const bazaar = required.extensions!.bazaar as any
  assert.deepEqual(validateDiscoveryExtension(bazaar), { valid: true })
  assert.equal(bazaar.info.input.type, 'http')
  assert.equal(bazaar.info.input.method, 'POST')
  assert.equal(bazaar.info.input.bodyType, 'json')
  assert.ok(bazaar.schema.properties.input.properties.body.properties.burnTxHash, 'the body schema is the route\'s')
})

test('a looksmaxx paid over HTTP carries both receipts; they verify against the published key, and the status and receipt document give the same', async () => {
  const key = await publishedKey()
  const agent = await readyAgent(5)
  const args = await burnedSubmission(agent)
  const client = payer(agent)
  const unpaid = await fetch(`${app.url}/api/x402/looksmaxx`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(args) })
  const payment = await client.createPaymentPayload(decodePaymentRequiredHeader(unpaid.headers.get('payment-required')!))
  const paid = await fetch(`${app.url}/api/x402/looksmaxx`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'PAYMENT-SIGNATURE': encodePaymentSignatureHeader(payment) },
    body: JSON.stringify(args),
  })
  const result = (await paid.json()) as any
  assert.equal(paid.status, 200, JSON.stringify(result))
  const { x402, delivery } = result.receipts

  // The x402 receipt sits where offer-receipt places it, and is the body's.
  const settlement = decodePaymentResponseHeader(paid.headers.get('payment-response')!)
  assert.deepEqual((settlement.extensions as any)['offer-receipt'].info.receipt, x402)
  assert.equal((await verifyReceiptSignatureEIP712(x402)).signer, key)
  assert.equal(await x402Valid(x402, key), true)
  assert.deepEqual(x402.payload, {
    version: 1,
    network: 'eip155:4326',
    resourceUrl: `${app.url}/api/x402/looksmaxx`,
    payer: agent.address,
    issuedAt: x402.payload.issuedAt,
    transaction: result.settlementTxHash,
  })

  // The delivery receipt states what the chain shows.
  assert.equal(await deliveryValid(delivery, key), true)
  const p = delivery.payload
  assert.deepEqual(p.payment, {
    network: 'eip155:4326',
    transaction: result.settlementTxHash,
    asset: app.devnet.info.contracts.usdmForwarder,
    amount: E18.toString(),
    payer: agent.address,
    payTo: app.devnet.info.accounts.facilitator,
  })
  assert.deepEqual(p.burn, { burner: agent.address, token: app.devnet.info.contracts.token, burnTx: args.burnTxHash, devTx: args.devTxHash, amount: (225_000n * E18).toString() })
  assert.equal(p.delivery.tokenId, result.tokenId)
  assert.equal(p.delivery.imageCid, result.ipfsCid)
  assert.equal(p.delivery.metadataUri, `ipfs://${result.metadataCid}`)
  assert.equal(p.delivery.mintTx, result.mintTxHash)
  assert.equal(p.delivery.recipient, agent.address)
  assert.equal(await agent.ownerOf(BigInt(p.delivery.tokenId)), p.delivery.recipient)
  const mint = await agent.publicClient.getTransaction({ hash: p.delivery.mintTx })
  assert.equal(getAddress(mint.from), key, 'the receipt key is the minter: the mint transaction is sent by the same key')
  const settled = await agent.publicClient.getTransactionReceipt({ hash: p.payment.transaction })
  assert.equal(settled.status, 'success')
  assert.equal(p.issuedAt, x402.payload.issuedAt)

  // Read back later, over HTTP and over MCP, and as the receipt document: the same bytes.
  const status = await app.get(`/api/x402/looksmaxx/${args.devTxHash}`)
  assert.deepEqual(status.body.result.receipts, result.receipts)
  const document = await fetch(`${app.url}/api/x402/looksmaxx/${args.burnTxHash}/receipt`)
  const text = await document.text()
  assert.deepEqual(JSON.parse(text), result.receipts)
  assert.equal(text, canonicalize(result.receipts), 'the document is RFC 8785 canonical JSON')
  const mcp = new Client({ name: 'reader', version: '1.0.0' })
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${app.url}/api/mcp`)))
  const viaMcp = (await mcp.callTool({ name: 'get_looksmaxx_status', arguments: { burnTxHash: args.burnTxHash } })) as any
  await mcp.close()
  assert.deepEqual(viaMcp.structuredContent.result.receipts, result.receipts)
  // And the feedback plan's hash is the hash of those bytes.
  const plan = await app.get(`/api/x402/looksmaxx/${args.burnTxHash}/feedback-tx`)
  assert.equal(plan.body.feedback.feedbackHash, keccak256(toBytes(text)))
})

test('a receipt fails verification when any field of it is changed', async () => {
  const key = await publishedKey()
  const agent = await readyAgent(6)
  const args = await burnedSubmission(agent)
  const required = decodePaymentRequiredHeader((await app.post('/api/x402/looksmaxx', args)).headers.get('payment-required')!)
  const payment = await payer(agent).createPaymentPayload(required)
  const { status, body: result } = await app.post('/api/x402/looksmaxx', args, { 'PAYMENT-SIGNATURE': encodePaymentSignatureHeader(payment) })
  assert.equal(status, 200, JSON.stringify(result))
  const { x402, delivery } = result.receipts
  assert.equal(await deliveryValid(delivery, key), true)
  assert.equal(await x402Valid(x402, key), true)
  const deliveryLeaves = leaves(delivery.payload)
  assert.equal(deliveryLeaves.length, 19, 'every field of the four structs')
  for (const [path, leaf] of deliveryLeaves) {
    assert.equal(await deliveryValid({ ...delivery, payload: withLeaf(delivery.payload, path, tampered(leaf)) }, key), false, `delivery.${path.join('.')} changed`)
  }
  for (const [path, leaf] of leaves(x402.payload)) {
    if (path[0] === 'version') continue // the schema version selects the types; 2 is not defined
    assert.equal(await x402Valid({ ...x402, payload: withLeaf(x402.payload, path, tampered(leaf)) }, key), false, `x402.${path.join('.')} changed`)
  }
  // Signed by another key, or checked against another key: refused too.
  assert.equal(await deliveryValid(delivery, agent.address), false)

  // The five lines of docs/agents/receipts.md, as written, with the published key and types.
  const schema = (await app.get('/.well-known/receipts.json')).body
  const inputs = { SIGNER: key, DELIVERY: schema.delivery, X402: schema.x402.receipt }
  assert.deepEqual(await runVerifySnippet({ ...inputs, receipts: result.receipts }), { deliveryOk: true, x402Ok: true })
  const forged = withLeaf(result.receipts, ['delivery', 'payload', 'delivery', 'recipient'], agent.contracts.token)
  assert.deepEqual(await runVerifySnippet({ ...inputs, receipts: forged }), { deliveryOk: false, x402Ok: true })
})

const verifySnippetOf = (doc: string) => /<!-- verify-receipts:start -->\n```ts\n([\s\S]*?)```\n<!-- verify-receipts:end -->/.exec(doc)?.[1]

async function runVerifySnippet(inputs: Record<string, unknown>) {
  const snippet = verifySnippetOf(await readFile(path.join(here, '../../docs/agents/receipts.md'), 'utf8'))
  assert.ok(snippet, 'docs/agents/receipts.md has the verification snippet')
  // The README shows the same lines to agent developers: one snippet, run here.
  assert.equal(verifySnippetOf(await readFile(path.join(here, '../../README.md'), 'utf8')), snippet, 'the README\'s verification snippet is the one of docs/agents/receipts.md')
  assert.ok(snippet.trim().split('\n').filter((line) => line.trim() && !line.trim().startsWith('//')).length <= 5, 'five lines')
  const declared = Object.entries(inputs).map(([name, value]) => `const ${name} = ${JSON.stringify(value)}\n`).join('')
  const file = path.join(here, `.verify-receipts-${process.pid}-${Math.random().toString(36).slice(2)}.ts`)
  await writeFile(file, `${declared}${snippet}\nexport { deliveryOk, x402Ok }\n`)
  try {
    const { deliveryOk, x402Ok } = await import(pathToFileURL(file).href)
    return { deliveryOk, x402Ok }
  } finally {
    await rm(file, { force: true })
  }
}

test('a burn-to-create portrait has a delivery receipt and no x402 receipt', async () => {
  const key = await publishedKey()
  const agent = await readyAgent(7)
  const args = await burnedSubmission(agent)
  const { status, body: result } = await app.post('/api/generate', { ...args, ...(await agent.signRedeem(args)) })
  assert.equal(status, 200, JSON.stringify(result))
  assert.equal(result.receipts.x402, null)
  assert.equal(await deliveryValid(result.receipts.delivery, key), true)
  assert.deepEqual(result.receipts.delivery.payload.payment, {
    network: '',
    transaction: `0x${'00'.repeat(32)}`,
    asset: '0x0000000000000000000000000000000000000000',
    amount: '0',
    payer: '0x0000000000000000000000000000000000000000',
    payTo: '0x0000000000000000000000000000000000000000',
  })
  assert.equal(result.receipts.delivery.payload.source, 'burn-to-create')
})

test('receipts and feedback of a submission that is unknown or not minted: 404 and 409; a bad score is 400', async () => {
  const unknown = `0x${'12'.repeat(32)}`
  for (const path of [`/api/x402/looksmaxx/${unknown}/receipt`, `/api/x402/looksmaxx/${unknown}/feedback-tx`]) {
    const { status, body } = await app.get(path)
    assert.equal(status, 404)
    assert.equal(body.error.code, 'NOT_FOUND')
  }
  // A submission claimed but not minted yet (as a request leaves it while it settles): 409 with its status link.
  const claimed = await claimSubmission(app.ctx.db, {
    source: 'burn-to-create', burnTxHash: `0x${'34'.repeat(32)}`, devTxHash: `0x${'56'.repeat(32)}`, burner: getAddress(`0x${'78'.repeat(20)}`),
    burnAmountWei: 225_000n * E18, claimedBlock: 1n, image: { bytes: new Uint8Array([1]), mimeType: 'image/png' }, leaseOwner: 'a test', leaseMs: 600_000,
  })
  assert.equal(claimed.claimed, true)
  for (const path of [`/api/x402/looksmaxx/${'0x' + '56'.repeat(32)}/receipt`, `/api/x402/looksmaxx/${'0x' + '34'.repeat(32)}/feedback-tx`]) {
    const { status, body } = await app.get(path)
    assert.equal(status, 409)
    assert.equal(body.error.code, 'NOT_MINTED')
    assert.equal(body.error.details.statusUrl, `${app.url}/api/x402/looksmaxx/0x${'34'.repeat(32)}`)
  }
  const bad = await app.get(`/api/x402/looksmaxx/${unknown}/feedback-tx?valueDecimals=19`)
  assert.equal(bad.status, 400)
  assert.equal(bad.body.error.code, 'INVALID_INPUT')
})
