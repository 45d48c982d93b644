import { test } from 'node:test'
import { createResponseCache } from '../../src/cache/response-cache.ts'
import { createServing } from '../../src/operations/runtime/serve.ts'
import { createLimits } from '../../src/operations/runtime/limits.ts'
import assert from 'node:assert/strict'
import type { Context } from '../../src/context.ts'
import { chat } from '../../src/chat/engine.ts'
import { createRunner } from '../../src/chat/runner.ts'
import { buildProposeTx } from '../../src/operations/defi/build-propose-tx.ts'
import { getPrice } from '../../src/operations/market/get-price.ts'
import { useApp } from '../support/harness.ts'

/**
 * The engine on the devnet's service: intents call the operations of the registry by value
 * through the runner. A context without some operations stands for a deployment that lacks
 * them; a context whose port throws stands for a broken handler.
 */
const app = useApp()
const without = (...ids: string[]): Context => ({ ...app.ctx, operations: app.ctx.operations.filter((op) => !ids.includes(op.id)) })

test('an intent runs its operation: the data is the operation\'s answer, as HTTP serves it', async () => {
  const [result, http] = await Promise.all([chat(app.ctx, { message: 'price pls' }), app.get('/api/price')])
  assert.equal(result.intent, 'price')
  assert.equal(result.operationId, 'get_price')
  const { timestamp: _a, ...data } = result.data as Record<string, unknown>
  const { timestamp: _b, ...served } = http.body
  assert.deepEqual(data, served)
  assert.deepEqual(result.actions[0], { label: 'The same data, directly', endpoint: '/api/price', method: 'GET', body: {}, operationId: 'get_price' })
  assert.match(result.answer, /^1 ETH buys about [\d,]+ MEGACHAD; a burn of 225,000 tokens costs about [\d.]+ ETH plus 1 USDm\.$/)
})

test('an operation\'s refusal is an answer with its code; a broken handler is INTERNAL_ERROR without details, and logged', async () => {
  const refused = await chat(app.ctx, { message: 'who is ghost.mega' })
  assert.equal(refused.intent, 'identity')
  assert.deepEqual(refused.error, { code: 'NOT_FOUND', message: refused.error!.message })
  assert.match(refused.answer, /NOT_FOUND/)
  assert.equal(refused.data, null)
  const logged: unknown[] = []
  const secret = 'http://user:hunter2@rpc.internal'
  const clock = () => {
    throw new Error(`cannot reach ${secret}`)
  }
  // The broken context gets serving (and a response cache) of its own: the app's would answer
  // from what it served before, without running the handler at all.
  const broken = { ...app.ctx, clock, cache: createResponseCache(), log: { ...app.ctx.log, error: (obj: unknown) => logged.push(obj) } as Context['log'] } as Context
  broken.serving = createServing(broken, createLimits(broken.config))
  const result = await chat(broken, { message: 'price' })
  assert.deepEqual(result.error, { code: 'INTERNAL_ERROR', message: 'internal error' })
  assert.ok(!JSON.stringify(result).includes('hunter2'), 'nothing of the failure leaks')
  assert.equal(logged.length, 1)
})

test('the runner never runs a write: a POST operation is refused without being called', async () => {
  const runner = createRunner(app.ctx)
  const outcome = await runner.run(buildProposeTx, { targets: [app.devnet.info.contracts.token], values: ['0'], calldatas: ['0x'], description: 'x' })
  assert.equal(outcome.ok, false)
  assert.match(!outcome.ok ? outcome.message : '', /is a write \(POST \/api\/defi\/governance\/propose-tx\): the chat only suggests it/)
  const { body } = await chat(app.ctx, { message: 'i want to make a proposal' }).then((r) => ({ body: r }))
  assert.equal(body.intent, 'propose')
  assert.equal(body.operationId, 'get_propose_eligibility')
  assert.match(body.answer, /To propose, POST \/api\/defi\/governance\/propose-tx with targets, values, calldatas and description/)
})

test('an intent whose operations are not deployed is recognised honestly, with no data', async () => {
  const result = await chat(without('build_staking_tx', 'get_defi_staking'), { message: 'stake 500 mc in jester' })
  assert.equal(result.intent, 'stake')
  assert.equal(result.data, null)
  assert.match(result.answer, /not available on this deployment yet/)
  assert.equal(result.actions[0]!.endpoint, '/api/agent')
  const runner = createRunner(without('get_price'))
  assert.equal(runner.has(getPrice), false)
  assert.equal(runner.action({ operation: getPrice, input: {}, label: 'x' }), undefined, 'no action for an operation not deployed')
})

test('a token amount to buy is never quoted as ETH: without the price the chat asks for an ETH amount', async () => {
  const result = await chat(without('get_price'), { message: 'buy 225000 tokens' })
  assert.equal(result.intent, 'swap')
  assert.equal(result.operationId, null)
  assert.equal(result.data, null)
  assert.match(result.answer, /225,000 MEGACHAD/)
  assert.match(result.answer, /how much ETH/)
  assert.ok(!result.actions.some((a) => a.endpoint.includes('ethAmount=225000')))
})

test('a missing proposal id is asked for and nothing is called; with one, the vote is built', async () => {
  const result = await chat(app.ctx, { message: 'vote yes' })
  assert.equal(result.intent, 'vote')
  assert.equal(result.operationId, null)
  assert.match(result.answer, /proposal 3/)
  assert.equal(result.actions[0]!.operationId, 'list_proposals')
  const { body: list } = await app.get('/api/defi/governance/proposals')
  const active = list.proposals.find((p: { state: string }) => p.state === 'Active')
  assert.ok(active, 'the devnet seed has an active proposal')
  const voted = await chat(app.ctx, { message: `vote against prop #${active.id}` })
  assert.equal(voted.operationId, 'build_vote_tx')
  assert.equal(voted.error, null)
  assert.equal(voted.actions[0]!.endpoint, `/api/defi/governance/vote-tx?proposalId=${active.id}&support=against`)
  assert.deepEqual(voted.actions[0]!.body, { proposalId: active.id, support: 'against' })
  assert.match(voted.answer, /It sends no ETH to 0x[0-9a-fA-F]{40} \(\w+\), calling castVote/, 'the transaction\'s value and destination in words')
  const expired = await chat(app.ctx, { message: 'vote against prop #1' })
  assert.equal(expired.error?.code, 'INVALID_INPUT', 'a refusal is an answer with its code')
  assert.equal(expired.actions[0]!.operationId, 'list_proposals')
})

test('token amounts in answers are formatted like the rest of chat, not raw decimals', async () => {
  const holder = app.devnet.info.accounts.demoHolder
  const result = await chat(app.ctx, { message: 'gasless burn', wallet: holder })
  assert.equal(result.intent, 'gasless')
  assert.doesNotMatch(result.answer, /\d\.\d{3,}/)
  assert.match(result.answer, new RegExp(`burns from ${holder} \\(your wallet\\)`))
})
