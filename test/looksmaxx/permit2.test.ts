import { test } from 'node:test'
import { readFile, writeFile, rm } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import assert from 'node:assert/strict'
import { encodeFunctionData, erc20Abi, maxUint256, parseAbi } from 'viem'
import { x402Client, wrapFetchWithPayment, decodePaymentResponseHeader } from '@x402/fetch'
import { decodePaymentRequiredHeader, encodePaymentSignatureHeader } from '@x402/core/http'
import { registerExactEvmScheme } from '@x402/evm/exact/client'
import { useApp } from '../support/harness.ts'
import { stockPermit2Client } from '../support/x402-clients.ts'
import { type Agent, createReadyAgent, burnedSubmission } from '../support/agent.ts'

const app = useApp()
const here = path.dirname(fileURLToPath(import.meta.url))
const E18 = 10n ** 18n
const PERMIT2 = '0x000000000022D473030F116dDEE9F6B43aC78BA3'
const PROXY = '0x402085c248EeA27D92E8b30b2C58ed07f9E20001'
const permit2Abi = parseAbi(['function nonceBitmap(address owner, uint256 wordPos) view returns (uint256)'])

const readyAgent = (index: number) => createReadyAgent(app.url, app.devnet.url, index)


const url = () => `${app.url}/api/x402/looksmaxx`
const post = (body: unknown, headers: Record<string, string> = {}) =>
  fetch(url(), { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })

async function nonceSpent(agent: Agent, nonce: string) {
  const word = await agent.publicClient.readContract({ address: PERMIT2, abi: permit2Abi, functionName: 'nonceBitmap', args: [agent.address, BigInt(nonce) >> 8n] })
  return ((word >> (BigInt(nonce) & 0xffn)) & 1n) === 1n
}

test('the 402 offers the forwarder and Permit2, in v1 accepts and in v2 PAYMENT-REQUIRED', async () => {
  const response = await fetch(url())
  assert.equal(response.status, 402)
  const body = (await response.json()) as any
  const usdm = app.devnet.info.contracts.usdm
  assert.deepEqual(
    body.accepts.map((a: any) => [a.asset, a.extra]),
    [
      [app.devnet.info.contracts.usdmForwarder, { name: 'USDm Forwarder', version: '1' }],
      [usdm, { name: 'MegaUSD', version: '1', assetTransferMethod: 'permit2' }],
    ],
  )
  const required = decodePaymentRequiredHeader(response.headers.get('payment-required')!)
  assert.deepEqual(required.accepts[1], { scheme: 'exact', network: 'eip155:4326', amount: '1000000000000000000', asset: usdm, payTo: body.accepts[1].payTo, maxTimeoutSeconds: 300, extra: { name: 'MegaUSD', version: '1', assetTransferMethod: 'permit2' } })
  assert.equal((required.extensions?.eip2612GasSponsoring as any).info.version, '1')
})

test('a stock x402 client pays with Permit2 (its EIP-2612 permit approving Permit2) and the portrait is minted once', async () => {
  const agent = await readyAgent(5)
  const body = await burnedSubmission(agent)
  assert.equal(await agent.publicClient.readContract({ address: agent.contracts.usdm!, abi: erc20Abi, functionName: 'allowance', args: [agent.address, PERMIT2] }), 0n, 'Permit2 not approved beforehand')
  const usdm = await agent.usdmBalance()
  const sent: Request[] = []
  const recordingFetch: typeof fetch = async (input, init) => {
    const request = new Request(input, init)
    sent.push(request.clone())
    return fetch(request)
  }
  const pay = wrapFetchWithPayment(recordingFetch, stockPermit2Client(agent))
  const response = await pay(url(), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  const result = (await response.json()) as any
  assert.equal(response.status, 200, JSON.stringify(result))
  assert.equal(sent.length, 2, 'one unpaid request, one paid retry')
  const payload = JSON.parse(Buffer.from(sent[1]!.headers.get('payment-signature')!, 'base64').toString('utf8'))
  assert.equal(payload.accepted.extra.assetTransferMethod, 'permit2', 'the client chose the Permit2 option')
  assert.equal(payload.payload.permit2Authorization.spender, PROXY)
  assert.ok(payload.extensions.eip2612GasSponsoring.info.signature, 'with an EIP-2612 permit of Permit2')

  assert.equal(await agent.ownerOf(BigInt(result.tokenId)), agent.address)
  assert.equal(await agent.nftBalance(), 1n)
  assert.equal(usdm - (await agent.usdmBalance()), E18, 'exactly 1 USDm moved')
  assert.equal(await nonceSpent(agent, payload.payload.permit2Authorization.nonce), true)
  const settlement = decodePaymentResponseHeader(response.headers.get('payment-response')!)
  assert.equal(settlement.success, true)
  assert.equal(settlement.payer, agent.address)
  assert.equal(settlement.transaction, result.settlementTxHash)
  const tx = await agent.publicClient.getTransaction({ hash: result.settlementTxHash })
  assert.equal(tx.to?.toLowerCase(), PROXY.toLowerCase(), 'settled through the x402 exact Permit2 proxy')
  const receipt = await agent.publicClient.getTransactionReceipt({ hash: result.settlementTxHash })
  const payTo = ((await (await fetch(url())).json()) as any).accepts[1].payTo.toLowerCase()
  const fee = receipt.logs.filter((log) => log.address.toLowerCase() === agent.contracts.usdm!.toLowerCase() && log.topics[2]?.endsWith(payTo.slice(2)))
  assert.equal(fee.length, 1, 'one transfer of the fee to payTo')
  assert.equal(BigInt(fee[0]!.data), E18)
})

test('a replayed Permit2 payment is refused and charges nothing; the burn stays redeemable', async () => {
  const agent = await readyAgent(6)
  await agent.buyTokens('1')
  // An approval of Permit2 made beforehand (the other way the spec allows), so no permit rides along.
  await agent.send({ to: agent.contracts.usdm!, data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [PERMIT2, maxUint256] }) })
  const first = await burnedSubmission(agent)
  const client = stockPermit2Client(agent)
  const required = decodePaymentRequiredHeader((await post(first)).headers.get('payment-required')!)
  const payload = await client.createPaymentPayload(required)
  assert.equal((payload.payload as any).permit2Authorization.spender, PROXY)
  assert.equal((payload.extensions?.eip2612GasSponsoring as any)?.info?.signature, undefined, 'no permit: Permit2 is approved')
  const header = { 'PAYMENT-SIGNATURE': encodePaymentSignatureHeader(payload) }
  const usdm = await agent.usdmBalance()
  const paid = await post(first, header)
  assert.equal(paid.status, 200, await paid.clone().text())

  const second = await burnedSubmission(agent)
  const replay = await post(second, header)
  assert.equal(replay.status, 402)
  const refused = decodePaymentRequiredHeader(replay.headers.get('payment-required')!)
  assert.match(refused.error ?? '', /permit2_invalid_nonce|already paid/)
  assert.equal(await agent.nftBalance(), 1n)
  assert.equal(usdm - (await agent.usdmBalance()), E18, 'the replay moved nothing')

  const fresh = await client.createPaymentPayload(decodePaymentRequiredHeader((await post(second)).headers.get('payment-required')!))
  const redeemed = await post(second, { 'PAYMENT-SIGNATURE': encodePaymentSignatureHeader(fresh) })
  assert.equal(redeemed.status, 200, await redeemed.clone().text())
  assert.equal(await agent.nftBalance(), 2n)
  assert.equal(usdm - (await agent.usdmBalance()), 2n * E18)
})

test('a Permit2 payment the chain would refuse is refused before anything is claimed', async () => {
  const agent = await readyAgent(7)
  const body = await burnedSubmission(agent)
  // A stock client without chain reads signs no EIP-2612 permit, and Permit2 is not approved.
  const client = new x402Client()
  registerExactEvmScheme(client, { signer: agent.account })
  client.setSpendControls({ allowedAssets: [{ network: 'eip155:4326', asset: agent.contracts.usdm! }] })
  const payload = await client.createPaymentPayload(decodePaymentRequiredHeader((await post(body)).headers.get('payment-required')!))
  const refused = await post(body, { 'PAYMENT-SIGNATURE': encodePaymentSignatureHeader(payload) })
  assert.equal(refused.status, 402)
  assert.match(decodePaymentRequiredHeader(refused.headers.get('payment-required')!).error ?? '', /permit2_allowance_required/)
  const status = await fetch(`${url()}/${body.burnTxHash}`)
  assert.equal(status.status, 404, 'nothing was claimed')
})

test('the Permit2 client of docs/agents/payments.md pays a looksmaxx as written', async () => {
  const doc = await readFile(path.join(here, '../../docs/agents/payments.md'), 'utf8')
  const snippet = /<!-- permit2-client-snippet:start -->\n```ts\n([\s\S]*?)```\n<!-- permit2-client-snippet:end -->/.exec(doc)?.[1]
  assert.ok(snippet, 'docs/agents/payments.md has the Permit2 client snippet')
  const agent = await readyAgent(8)
  const { burnTxHash, devTxHash, image } = await burnedSubmission(agent)
  const usdm = await agent.usdmBalance()
  const inputs = [
    ['SERVICE_URL', app.url],
    ['RPC_URL', app.devnet.url],
    ['PRIVATE_KEY', agent.privateKey],
    ['burnTxHash', burnTxHash],
    ['devTxHash', devTxHash],
    ['image', image],
  ].map(([name, value]) => `const ${name} = ${JSON.stringify(value)}\n`).join('')
  // A module beside this test, so that it resolves the same packages.
  const file = path.join(here, `.docs-permit2-snippet-${process.pid}.ts`)
  await writeFile(file, `${inputs}${snippet}\nexport { response, result, settlement }\n`)
  let ran: { response: Response; result: any; settlement: any }
  try {
    ran = await import(pathToFileURL(file).href)
  } finally {
    await rm(file, { force: true })
  }
  assert.equal(ran.response.status, 200, JSON.stringify(ran.result))
  assert.equal(await agent.ownerOf(BigInt(ran.result.tokenId)), agent.address)
  assert.equal(usdm - (await agent.usdmBalance()), E18)
  assert.equal(ran.settlement.success, true)
  assert.equal(ran.settlement.transaction, ran.result.settlementTxHash)
  const tx = await agent.publicClient.getTransaction({ hash: ran.result.settlementTxHash })
  assert.equal(tx.to?.toLowerCase(), PROXY.toLowerCase(), 'paid with Permit2')
})
