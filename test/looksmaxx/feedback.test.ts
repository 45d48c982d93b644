import { test } from 'node:test'
import assert from 'node:assert/strict'
import { keccak256, toBytes, verifyTypedData, type Hex } from 'viem'
import { useApp } from '../support/harness.ts'
import { createAgent, portraitBase64 } from '../support/agent.ts'
import { testAccount } from '../support/accounts.ts'
import { reputationRegistryAbi } from '../../src/chain/abis/registries.ts'

const app = useApp()

test('the feedback plan, sent by the payer, rates the service with the receipts as proof; chadboard and agent info count it', async () => {
  const agent = await createAgent(app.url, app.devnet.url, 5)
  await agent.buyTokens('1')
  const { burnTxHash, devTxHash } = await agent.burn()
  const required = await app.get('/api/x402/looksmaxx')
  const paid = await app.post('/api/x402/looksmaxx', {
    burnTxHash, devTxHash, burnerAddress: agent.address, image: await portraitBase64(), imageType: 'image/jpeg',
    paymentPayload: await agent.signPayment(required.body.accepts[0]),
  })
  assert.equal(paid.status, 200, JSON.stringify(paid.body))
  await app.ctx.indexer.sync()

  const { reputationRegistry, identityRegistry } = app.devnet.info.contracts
  const agentId = app.devnet.info.agentId
  const boardEntry = async () => (await app.get('/api/chadboard')).body.entries.find((e: any) => e.address === agent.address)
  assert.deepEqual((await boardEntry()).reputation, { score: null, count: 0 })
  const before = (await app.get('/api/agent/info')).body.onChain
  assert.deepEqual(before.reputation, { score: null, count: 0 })

  const { status, body: plan } = await app.get(`/api/x402/looksmaxx/${burnTxHash}/feedback-tx`)
  assert.equal(status, 200, JSON.stringify(plan))
  assert.equal(plan.agentId, agentId)
  assert.equal(plan.agentRegistry, `eip155:4326:${identityRegistry}`)
  assert.equal(plan.sender, agent.address)
  assert.deepEqual(plan.receipts, paid.body.receipts)
  const receiptUrl = `${app.url}/api/x402/looksmaxx/${burnTxHash}/receipt`
  assert.deepEqual(plan.feedback, {
    value: '100', valueDecimals: 0, tag1: 'starred', tag2: '',
    endpoint: `${app.url}/api/x402/looksmaxx`, feedbackURI: receiptUrl, feedbackHash: plan.feedback.feedbackHash,
  })
  const [step] = plan.executionPlan
  assert.equal(plan.executionPlan.length, 1)
  assert.deepEqual({ to: step.to, value: step.value, functionName: step.functionName, args: step.args }, {
    to: reputationRegistry, value: '0', functionName: 'giveFeedback',
    args: [agentId, '100', 0, 'starred', '', plan.feedback.endpoint, receiptUrl, plan.feedback.feedbackHash],
  })

  // The agent's owner cannot rate it: the registry refuses the same plan from the owner.
  await assert.rejects(
    agent.publicClient.call({ account: testAccount(0).account, to: step.to, data: step.data }),
    /Self-feedback not allowed/,
  )
  // One signature from the payer.
  const hash = await agent.send({ to: step.to, data: step.data })

  // What a reader of the feedback checks: the event cites the document, whose bytes hash to
  // feedbackHash and whose receipts recover to the published key.
  const receipt = await agent.publicClient.getTransactionReceipt({ hash })
  const [event] = await agent.publicClient.getContractEvents({ address: reputationRegistry, abi: reputationRegistryAbi, eventName: 'NewFeedback', blockHash: receipt.blockHash })
  assert.equal(event!.args.clientAddress, agent.address)
  assert.equal(event!.args.feedbackIndex, 1n)
  const bytes = await (await fetch(event!.args.feedbackURI!)).text()
  assert.equal(keccak256(toBytes(bytes)), event!.args.feedbackHash)
  const document = JSON.parse(bytes)
  const signer = (await app.get('/.well-known/agent-registration.json')).body.receipts.signer as Hex
  const schema = (await app.get('/.well-known/receipts.json')).body
  assert.equal(await verifyTypedData({ address: signer, domain: schema.delivery.domain, types: schema.delivery.types, primaryType: 'DeliveryReceipt', message: document.delivery.payload, signature: document.delivery.signature }), true)
  assert.equal(document.x402.payload.payer, event!.args.clientAddress, 'the rater is the payer the receipt names')

  // The reads count it once the indexer has seen the event (no cache is cleared by hand).
  await app.ctx.indexer.sync()
  assert.deepEqual((await boardEntry()).reputation, { score: 100, count: 1 })
  const after = (await app.get('/api/agent/info')).body.onChain
  assert.deepEqual(after.reputation, { score: 100, count: 1 })
  assert.equal(after.reputationClients, before.reputationClients + 1)
})
