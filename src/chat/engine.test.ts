import { test } from 'node:test'
import assert from 'node:assert/strict'
import { z } from 'zod'
import { chat } from './engine.ts'
import { defineOperation, type AnyOperation } from '../operations/define.ts'
import { AppError } from '../errors/app-error.ts'
import type { Context } from '../context.ts'

// A registry of stand-ins: the engine's behaviour does not depend on what operations compute.
const ops = [
  defineOperation({
    id: 'get_price', method: 'GET', path: '/api/price', summary: 'price', tags: ['market'], errors: [],
    input: z.object({}),
    output: z.object({ price: z.object({ coinPerEth: z.number() }), burnCost: z.object({ tokensRequired: z.number(), estimatedEth: z.number(), infraFeeUsdm: z.number() }) }),
    handler: async () => ({ price: { coinPerEth: 400000, secret: 'dropped by the output schema' } as any, burnCost: { tokensRequired: 225000, estimatedEth: 0.56, infraFeeUsdm: 1 } }),
  }),
  defineOperation({
    id: 'get_identity', method: 'GET', path: '/api/identity/{addressOrName}', summary: 'identity', tags: ['read'], errors: ['NOT_FOUND'],
    input: z.object({ addressOrName: z.string() }),
    output: z.object({}),
    handler: async (_ctx, { addressOrName }) => {
      throw new AppError('NOT_FOUND', `No address is registered for ${addressOrName}.`)
    },
  }),
  defineOperation({
    id: 'get_stats', method: 'GET', path: '/api/stats', summary: 'stats', tags: ['token'], errors: [],
    input: z.object({}),
    output: z.object({ totalBurns: z.number() }),
    handler: async () => ({ totalBurns: 'not a number' }) as any,
  }),
  defineOperation({
    id: 'build_propose_tx', method: 'POST', path: '/api/defi/governance/propose-tx', summary: 'propose', tags: ['defi'], errors: [],
    input: z.object({ proposer: z.string().optional(), description: z.string() }),
    output: z.object({}),
    handler: async () => {
      throw new Error('the chat must never call a POST')
    },
  }),
  defineOperation({
    id: 'build_vote_tx', method: 'GET', path: '/api/defi/governance/vote-tx', summary: 'vote', tags: ['defi'], errors: [],
    input: z.object({ proposalId: z.coerce.number().int(), support: z.enum(['for', 'against', 'abstain']) }),
    output: z.object({ executionPlan: z.array(z.unknown()) }),
    handler: async () => ({ executionPlan: [{}] }),
  }),
  defineOperation({
    id: 'get_gasless_burn', method: 'GET', path: '/api/gasless/burn', summary: 'gasless', tags: ['gasless'], errors: [],
    input: z.object({ address: z.string() }),
    output: z.object({ ready: z.boolean(), approval: z.object({ status: z.string() }), balance: z.object({ sufficient: z.boolean(), balanceFormatted: z.string() }) }),
    handler: async () => ({ ready: false, approval: { status: 'ok' }, balance: { sufficient: false, balanceFormatted: '6844.974336063857105362' } }),
  }),
  defineOperation({
    id: 'get_agent_index', method: 'GET', path: '/api/agent', summary: 'index', tags: ['discovery'], errors: [],
    input: z.object({}), output: z.object({}), handler: async () => ({}),
  }),
] as unknown as AnyOperation[]

const ctx = { operations: ops, log: { error() {} } } as unknown as Context

test('an intent runs its operation; the output goes through the operation\'s schema', async () => {
  const result = await chat(ctx, { message: 'price pls' })
  assert.equal(result.intent, 'price')
  assert.equal(result.operationId, 'get_price')
  assert.deepEqual(result.data, { price: { coinPerEth: 400000 }, burnCost: { tokensRequired: 225000, estimatedEth: 0.56, infraFeeUsdm: 1 } })
  assert.deepEqual(result.actions[0], { label: 'The same data, directly', endpoint: '/api/price', method: 'GET', body: {}, operationId: 'get_price' })
  assert.ok(!result.actions.some((a) => a.operationId === 'get_swap_quote'), 'suggestions of operations not in the registry are dropped')
})

test('an operation error is an answer with its code; a broken handler is INTERNAL_ERROR without details', async () => {
  const refused = await chat(ctx, { message: 'who is ghost.mega' })
  assert.deepEqual(refused.error, { code: 'NOT_FOUND', message: 'No address is registered for ghost.mega.' })
  assert.match(refused.answer, /NOT_FOUND/)
  assert.equal(refused.data, null)
  const broken = await chat(ctx, { message: 'stats' })
  assert.deepEqual(broken.error, { code: 'INTERNAL_ERROR', message: 'internal error' })
})

test('a POST operation is suggested, never called', async () => {
  const result = await chat(ctx, { message: 'i want to make a proposal' })
  assert.equal(result.intent, 'propose')
  assert.equal(result.operationId, null)
  assert.match(result.answer, /does not send writes/)
  assert.match(result.answer, /description/)
})

test('an intent without its operation here is recognised honestly, with no data', async () => {
  const result = await chat(ctx, { message: 'stake 500 mc in jester' })
  assert.equal(result.intent, 'stake')
  assert.equal(result.data, null)
  assert.match(result.answer, /not available on this deployment yet/)
  assert.equal(result.actions[0]!.endpoint, '/api/agent')
})

test('a missing proposal id is asked for, and nothing is called', async () => {
  const result = await chat(ctx, { message: 'vote yes' })
  assert.equal(result.intent, 'vote')
  assert.equal(result.operationId, null)
  assert.match(result.answer, /proposal 3/)
  const voted = await chat(ctx, { message: 'vote against prop #4' })
  assert.equal(voted.operationId, 'build_vote_tx')
  assert.deepEqual(voted.actions[0]!.body, { proposalId: 4, support: 'against' })
  assert.equal(voted.actions[0]!.endpoint, '/api/defi/governance/vote-tx?proposalId=4&support=against')
})

test('a token amount to buy is never quoted as ETH: without the quote operation the chat asks for an ETH amount', async () => {
  const result = await chat(ctx, { message: 'buy 225000 tokens' })
  assert.equal(result.intent, 'swap')
  assert.equal(result.operationId, null)
  assert.equal(result.data, null)
  assert.match(result.answer, /225,000 MEGACHAD/)
  assert.match(result.answer, /how much ETH/)
  assert.ok(!result.actions.some((a) => a.endpoint.includes('ethAmount=225000')))
})

test('token amounts in answers are formatted like the rest of chat, not raw decimals', async () => {
  const result = await chat(ctx, { message: 'gasless burn for 0x70997970c51812dc3a010c7d01b50e0d17dc79c8' })
  assert.equal(result.intent, 'gasless')
  assert.match(result.answer, /the balance \(6,844\.97\) is below 225,000/)
  assert.doesNotMatch(result.answer, /6844\.974/)
})
