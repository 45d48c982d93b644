import { test, before } from 'node:test'
import assert from 'node:assert/strict'
import { useApp, type TestDevnet } from '../support/harness.ts'
import { postJson } from '../support/fetch-json.ts'
import { createAgent, portraitBase64, type Agent } from '../support/agent.ts'
import { computeCid } from '../../src/adapters/ipfs/cid.ts'

let devnet: TestDevnet
const app = useApp()
let agent: Agent
let image: string
const E18 = 10n ** 18n

before(async () => {
  devnet = app.devnet
  agent = await createAgent(app.url, devnet.url, 5)
  image = await portraitBase64()
})

test('an agent buys tokens, burns, pays 1 USDm with x402 and receives its portrait NFT', async () => {
  await agent.buyTokens('1')
  assert.ok((await agent.coinBalance()) >= 225_000n * E18, 'the swap bought enough tokens')
  const { burnTxHash, devTxHash } = await agent.burn()

  const required = await app.get(`/api/x402/looksmaxx`)
  assert.equal(required.status, 402)
  assert.equal(required.headers.get('x-payment-required'), 'true')
  assert.equal(required.headers.get('x-402-version'), '1')
  const [requirements] = required.body.accepts
  assert.equal(requirements.network, 'megaeth')
  assert.equal(requirements.asset, devnet.info.contracts.usdmForwarder)
  assert.equal(requirements.payTo, devnet.info.accounts.facilitator)
  assert.equal(requirements.maxAmountRequired, '1000000000000000000')
  assert.equal(required.body.burnRequirements.trenFundWallet, devnet.info.accounts.fundWallet)
  assert.deepEqual(Object.keys(required.body.instructions), ['step1', 'step2', 'step3', 'step4'])

  const usdmBefore = await agent.usdmBalance()
  const paymentPayload = await agent.signPayment(requirements)
  const { status, body, headers } = await app.post(`/api/x402/looksmaxx`, {
    burnTxHash,
    devTxHash,
    burnerAddress: agent.address,
    image,
    imageType: 'image/jpeg',
    paymentPayload,
  })
  assert.equal(status, 200, JSON.stringify(body))
  assert.equal(body.success, true)
  assert.equal(body.source, 'x402-agent')
  assert.equal(body.burnTxHash, burnTxHash)
  assert.equal(body.devTxHash, devTxHash)
  assert.match(body.tokenId, /^\d+$/)
  assert.equal(body.ipfsUrl, `${app.url}/ipfs/${body.ipfsCid}`)
  assert.equal(body.imageUrl, body.ipfsUrl)

  // On chain: the NFT is the agent's, and exactly 1 USDm left its wallet.
  assert.equal(await agent.ownerOf(BigInt(body.tokenId)), agent.address)
  assert.equal(usdmBefore - (await agent.usdmBalance()), E18)
  const settlement = JSON.parse(Buffer.from(headers.get('x-payment-response')!, 'base64').toString())
  assert.equal(settlement.success, true)
  assert.match(settlement.transaction, /^0x[0-9a-f]{64}$/)

  // The bytes served at the CID hash to that CID, and they are a 1024² PNG.
  const served = new Uint8Array(await (await fetch(body.ipfsUrl)).arrayBuffer())
  assert.equal(await computeCid(served), body.ipfsCid)
  assert.deepEqual([...served.subarray(1, 4)], [0x50, 0x4e, 0x47])

  // Status and metadata tell the same story.
  const statusView = await app.get(`/api/x402/looksmaxx/${devTxHash}`)
  assert.equal(statusView.body.status, 'minted')
  assert.deepEqual(statusView.body.steps.map((s: any) => s.step), ['claimed', 'settled', 'generated', 'pinned', 'minted'])
  assert.equal(statusView.body.result.tokenId, body.tokenId)
  const metadata = await app.get(`/api/metadata/${body.tokenId}`)
  assert.equal(metadata.status, 200)
  assert.equal(metadata.body.image, `ipfs://${body.ipfsCid}`)
  assert.ok(metadata.body.attributes.some((a: any) => a.trait_type === 'Burn Tx' && a.value === burnTxHash))
  const tokenUri = await agent.publicClient.readContract({
    address: devnet.info.contracts.nft,
    abi: [{ type: 'function', name: 'tokenURI', stateMutability: 'view', inputs: [{ type: 'uint256' }], outputs: [{ type: 'string' }] }],
    functionName: 'tokenURI',
    args: [BigInt(body.tokenId)],
  })
  assert.match(tokenUri, /^ipfs:\/\//)

  // The wallet's NFT inventory lists the portrait it just looksmaxxed, first.
  const inventory = await app.get(`/api/defi/nft?address=${agent.address}`)
  assert.equal(inventory.status, 200, JSON.stringify(inventory.body))
  assert.deepEqual(inventory.body.recent[0], { tokenId: body.tokenId, burnTxHash, ipfsUrl: body.ipfsUrl, timestamp: inventory.body.recent[0].timestamp })

  // An NFT minted outside the service (the seed's #1): its token URI is linked as its own
  // metadata, never given as its image.
  const foreign = await app.get(`/api/metadata/1`)
  assert.equal(foreign.status, 200)
  assert.equal(foreign.body.name, 'MegaCHAD Looksmaxx #1')
  assert.equal(foreign.body.image, '')
  assert.equal(foreign.body.external_url, 'https://megachad.xyz/api/metadata/seed')
  assert.ok(foreign.body.attributes.some((a: any) => a.trait_type === 'Owner'))

  // Stats count the portrait.
  app.ctx.cache.clear()
  assert.equal((await app.get(`/api/stats`)).body.totalBurns, 1)

  // A replay of either hash is 409 with the status link, and consumes nothing.
  for (const replay of [{ burnTxHash, devTxHash }, { burnTxHash: devTxHash, devTxHash: burnTxHash }]) {
    const again = await app.post(`/api/x402/looksmaxx`, {
      ...replay,
      burnerAddress: agent.address,
      image,
      paymentPayload: await agent.signPayment(requirements),
    })
    assert.equal(again.status, 409)
    assert.equal(again.body.error.code, 'BURN_ALREADY_USED')
    assert.equal(again.body.error.details.statusUrl, `${app.url}/api/x402/looksmaxx/${burnTxHash}`)
  }
  assert.equal(usdmBefore - (await agent.usdmBalance()), E18, 'replays did not charge')
  assert.equal(await agent.nftBalance(), 1n)
})

test('metadata of a token that does not exist is 404', async () => {
  for (const id of ['999999', 'PLACEHOLDER']) {
    const { status, body } = await app.get(`/api/metadata/${id}`)
    assert.equal(status, 404)
    assert.equal(body.error.code, 'NOT_FOUND')
  }
})

test('the plan for a wallet without tokens is swap, burn, fund transfer, submit', async () => {
  const fresh = await createAgent(app.url, devnet.url, 9)
  const { status, body } = await app.get(`/api/agent/looksmaxx?wallet=${fresh.address}`)
  assert.equal(status, 200)
  assert.deepEqual(body.steps.map((s: any) => [s.step, s.action, s.skip]), [[1, 'swap', false], [2, 'burn', false], [3, 'tren_fund', false], [4, 'submit', false]])
  assert.equal(body.currentState.tokensNeeded, 225000)
  // Too little ETH for the tokens: refused, with the ETH that covers them, which then plans.
  const short = await app.get(`/api/agent/looksmaxx?wallet=${fresh.address}&ethAmount=0.01`)
  assert.equal(short.status, 400, JSON.stringify(short.body))
  assert.equal(short.body.error.code, 'INVALID_AMOUNT')
  assert.equal(short.body.error.details.field, 'ethAmount')
  assert.ok(short.body.error.details.tokensOut < 225000)
  const enough = await app.get(`/api/agent/looksmaxx?wallet=${fresh.address}&ethAmount=${short.body.error.details.ethNeeded}`)
  assert.equal(enough.status, 200, JSON.stringify(enough.body))
  assert.match(enough.body.steps[0].description, /225,000 needed/)
  // The plan's transactions, sent as they are, do what it promises: the swap buys enough
  // tokens, the two transfers are a valid burn, and the submit step redeems them for an NFT.
  const [swap, burn, fund, submit] = body.steps
  await fresh.send({ to: swap.transaction.to, data: swap.transaction.data, value: BigInt(swap.transaction.value) })
  assert.ok((await fresh.coinBalance()) >= 225_000n * E18, 'the swap step bought the 225,000 tokens')
  const ready = await app.get(`/api/agent/looksmaxx?wallet=${fresh.address}`)
  assert.equal(ready.body.currentState.hasEnoughTokens, true)
  assert.equal(ready.body.currentState.tokensNeeded, 0)
  assert.equal(ready.body.steps[0].skip, true, 'no second swap is planned')
  const coins = await fresh.coinBalance()
  const burnTxHash = await fresh.send({ to: burn.transaction.to, data: burn.transaction.data, value: BigInt(burn.transaction.value) })
  const devTxHash = await fresh.send({ to: fund.transaction.to, data: fund.transaction.data, value: BigInt(fund.transaction.value) })
  assert.equal(coins - (await fresh.coinBalance()), 225_000n * E18, 'the two transfers moved the 225,000 tokens')
  const usdm = await fresh.usdmBalance()
  const redeemed = await postJson(submit.postRequest.url, {
    burnTxHash, devTxHash, burnerAddress: fresh.address, image, imageType: 'image/jpeg',
    paymentPayload: await fresh.signPayment(submit.postRequest.paymentRequirements),
  })
  assert.equal(redeemed.status, 200, JSON.stringify(redeemed.body))
  assert.equal(await fresh.ownerOf(BigInt(redeemed.body.tokenId)), fresh.address, 'the plan ends in an NFT of the wallet')
  assert.equal(usdm - (await fresh.usdmBalance()), E18)
  assert.equal(body.steps[3].postRequest.url, `${app.url}/api/x402/looksmaxx`)
  const holder = await app.get(`/api/agent/looksmaxx?wallet=${devnet.info.accounts.demoHolder}`)
  assert.equal(holder.body.steps[0].skip, true)
  assert.match(holder.body.steps[0].skipReason, /already holds/)
  const bad = await app.get(`/api/agent/looksmaxx?wallet=0x12`)
  assert.equal(bad.status, 400)
  assert.equal(bad.body.error.code, 'INVALID_ADDRESS')
})

test('POST /api/generate redeems a burn without the fee, and shares the replay protection', async () => {
  const burner = await createAgent(app.url, devnet.url, 6)
  await burner.buyTokens('1')
  const { burnTxHash, devTxHash } = await burner.burn()
  const usdm = await burner.usdmBalance()
  const { status, body } = await app.post(`/api/generate`, { burnTxHash, devTxHash, burnerAddress: burner.address, image, ...(await burner.signRedeem({ burnTxHash, devTxHash, image })) })
  assert.equal(status, 200, JSON.stringify(body))
  assert.equal(body.source, 'burn-to-create')
  assert.equal(await burner.ownerOf(BigInt(body.tokenId)), burner.address)
  assert.equal(await burner.usdmBalance(), usdm, 'no fee on this path')
  const paid = await app.post(`/api/x402/looksmaxx`, {
    burnTxHash, devTxHash, burnerAddress: burner.address, image,
    paymentPayload: await burner.signPayment((await app.get(`/api/x402/looksmaxx`)).body.accepts[0]),
  })
  assert.equal(paid.status, 409, 'the same burn cannot be redeemed again on the paid path')
  assert.equal(paid.body.error.code, 'BURN_ALREADY_USED')
  assert.equal(await burner.usdmBalance(), usdm)
})
