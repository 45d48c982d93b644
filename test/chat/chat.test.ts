import { test, describe, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { getAddress } from 'viem'
import { useApp } from '../support/harness.ts'
import { startFakeApi } from '../support/fake-http.ts'
import { chat } from '../../src/chat/engine.ts'
import { classify } from '../../src/chat/classify.ts'
import { extractEntities } from '../../src/chat/extract.ts'
import { TRAINING } from './fixtures/training.ts'
import { HELD_OUT } from './fixtures/held-out.ts'
import { HELD_OUT_2 } from './fixtures/held-out-2.ts'
import { HELD_OUT_3 } from './fixtures/held-out-3.ts'
import { HELD_OUT_4 } from './fixtures/held-out-4.ts'
import { AGENT_INTENTS } from '../../src/operations/agent/intents.ts'
import { defiAccountAddresses, defiRoles } from '../../src/devnet/defi-accounts.ts'

// The LLM refiner is configured against a local server speaking the chat-completions API; it
// is only asked when the rules are unsure. The env object is filled before the app starts.
const env: Record<string, string> = {}
let llm: Awaited<ReturnType<typeof startFakeApi>>
before(async () => {
  llm = await startFakeApi(async (request) => {
    const body = JSON.parse(request.body.toString()) as { messages: Array<{ content: string }> }
    const user = body.messages.at(-1)!.content
    if (user.includes('zorblax')) return { status: 200, body: { choices: [{ message: { role: 'assistant', content: '{"intent":"price"}' } }] } }
    if (user.includes('drain')) return { status: 200, body: { choices: [{ message: { role: 'assistant', content: '{"intent":"drain_wallet"}' } }] } }
    return { status: 500, body: { error: 'down' } }
  })
  Object.assign(env, { CHAT_LLM_URL: `${llm.url}/v1`, CHAT_LLM_API_KEY: 'sk-test', CHAT_LLM_MODEL: 'tiny' })
})
after(() => llm?.close())

const app = useApp({ env })
const post = (body: unknown) => app.post('/api/agent/chat', body)

describe('GET /api/agent/chat', () => {
  test('documents the endpoint and the 36 intents with examples', async () => {
    const { status, body } = await app.get('/api/agent/chat')
    assert.equal(status, 200)
    assert.equal(body.method, 'POST')
    assert.match(body.endpoint, /\/api\/agent\/chat$/)
    assert.deepEqual(body.supportedIntents, [...AGENT_INTENTS])
    assert.equal(body.examples.length, 36)
    assert.equal(body.intents.find((i: any) => i.intent === 'price').available, true)
  })
})

describe('POST /api/agent/chat: input', () => {
  test('a missing, empty or blank message is 400 INVALID_INPUT with the JSON error body', async () => {
    for (const body of [{}, { message: '' }, { message: '   ' }, { message: 42 }]) {
      const { status, body: answer } = await post(body)
      assert.equal(status, 400, JSON.stringify(body))
      assert.equal(answer.error.code, 'INVALID_INPUT')
      assert.equal(typeof answer.error.message, 'string')
    }
  })

  test('a malformed wallet is 400 INVALID_ADDRESS', async () => {
    const { status, body } = await post({ message: 'my balance', wallet: '0x123' })
    assert.equal(status, 400)
    assert.equal(body.error.code, 'INVALID_ADDRESS')
  })
})

describe('POST /api/agent/chat: intents end to end on the devnet', () => {
  test('price: the data is the price endpoint\'s', async () => {
    const [{ status, body }, price] = await Promise.all([post({ message: 'wats the prise of megachad rn' }), app.get('/api/price')])
    assert.equal(status, 200)
    assert.equal(body.intent, 'price')
    assert.equal(body.operationId, 'get_price')
    assert.equal(body.classifiedBy, 'rules')
    assert.equal(body.data.burnCost.tokensRequired, 225000)
    assert.equal(body.data.price.coinPerEth, price.body.price.coinPerEth)
    assert.match(body.answer, /MEGACHAD/)
    assert.ok(body.actions.some((a: any) => a.endpoint.startsWith('/api/x402/quote?ethAmount=')))
  })

  test('wallet: a devnet address in the message, checksummed, with its real balance', async () => {
    const holder = app.devnet.info.accounts.demoHolder
    const { status, body } = await post({ message: `can ${holder.toLowerCase()} burn` })
    assert.equal(status, 200)
    assert.equal(body.intent, 'wallet')
    assert.equal(body.data.address, getAddress(holder))
    assert.equal(body.data.balances.coin, 1_000_000)
    assert.equal(body.data.burnEligibility.canBurn, true)
    assert.match(body.answer, /can burn/)
    assert.deepEqual(body.entities.addresses, [getAddress(holder)])
  })

  test('wallet: the request wallet is the context', async () => {
    const agent = app.devnet.info.accounts.agents[0]!
    const { body } = await post({ message: 'whats my balance', wallet: agent })
    assert.equal(body.intent, 'wallet')
    assert.equal(body.data.balances.coin, 0)
    assert.equal(body.data.burnEligibility.canBurn, false)
    assert.ok(body.actions.some((a: any) => a.operationId === 'get_looksmaxx_plan'))
  })

  test('wallet without any wallet asks for one, no data', async () => {
    const { status, body } = await post({ message: 'check my balance' })
    assert.equal(status, 200)
    assert.equal(body.intent, 'wallet')
    assert.equal(body.data, null)
    assert.match(body.answer, /wallet/)
  })

  test('gallery: the gallery endpoint\'s data (empty on a fresh devnet)', async () => {
    const { body } = await post({ message: 'show me the latest portraits' })
    assert.equal(body.intent, 'gallery')
    assert.deepEqual(body.data.burns, [])
    assert.equal(body.data.limit, 5)
    assert.match(body.answer, /No portraits/)
  })

  test('compare: two wallets side by side (an address and a .mega name)', async () => {
    const holder = app.devnet.info.accounts.demoHolder
    const agent = app.devnet.info.accounts.agents[1]!
    const { body } = await post({ message: `compare demo.mega vs ${agent}` })
    assert.equal(body.intent, 'compare')
    assert.equal(body.data.sideBySide.length, 2)
    assert.equal(body.data.sideBySide[0].address, getAddress(holder))
    assert.equal(body.data.sideBySide[0].coin, 1_000_000)
    assert.equal(body.data.sideBySide[1].address, getAddress(agent))
    assert.equal(body.data.leader, getAddress(holder))
    assert.equal(body.actions.length, 2)
  })

  test('swap: a token amount asks for the ETH that buys it; "half an eth" and "how many tokens for 0.5 ETH" quote 0.5 ETH', async () => {
    for (const message of ['buy 225000 tokens', 'How much ETH do I need to buy 225k tokens?']) {
      const { body } = await post({ message })
      assert.equal(body.intent, 'swap', message)
      assert.equal(body.operationId, 'get_swap_quote', message)
      assert.deepEqual(body.entities.amounts[0], { value: '225000', token: 'MC', raw: message.includes('225k') ? '225k tokens' : '225000 tokens' })
      assert.ok(Number(body.data.quote.ethIn) < 100, `${message}: ${body.data.quote.ethIn} ETH is not 225000 ETH`)
      assert.ok(body.data.quote.coinOut >= 225_000 && body.data.quote.coinOut < 225_000 * 1.1, `${message}: ${body.data.quote.coinOut} tokens`)
      assert.match(body.answer, new RegExp(`^About ${body.data.quote.ethIn} ETH buys 225,000 MEGACHAD`))
      assert.equal(body.actions[0].endpoint, `/api/x402/quote?ethAmount=${body.data.quote.ethIn}`)
    }
    const { body: swap } = await post({ message: 'swap 0.5 eth' })
    assert.equal(swap.data.quote.ethIn, '0.5')
    for (const message of ['how many tokens do I get for 0.5 ETH?', 'buy megachad with half an eth']) {
      const { body } = await post({ message })
      assert.equal(body.intent, 'swap', message)
      assert.equal(body.answer, swap.answer, message)
    }
  })

  test('multi_burn: count × 225,000 and count USDm, and what the wallet lacks', async () => {
    const holder = app.devnet.info.accounts.demoHolder
    const { body } = await post({ message: 'burn 5 times', wallet: holder })
    assert.equal(body.intent, 'multi_burn')
    assert.equal(body.data.tokensRequired, 1_125_000)
    assert.equal(body.data.usdmRequired, 5)
    assert.equal(body.data.tokensShort, 125_000)
    assert.equal(body.data.canAfford, false)
    assert.equal(body.data.wallet.usdm, 1000)
    assert.ok(body.actions.some((a: any) => a.operationId === 'get_swap_quote'))
    const { body: four } = await post({ message: 'four portraits', wallet: holder })
    assert.equal(four.data.canAfford, true)
  })

  test('an operation error becomes an answer with its code, not a 500', async () => {
    const { status, body } = await post({ message: 'who is nobody-here.mega' })
    assert.equal(status, 200)
    assert.equal(body.intent, 'identity')
    assert.equal(body.error.code, 'NOT_FOUND')
    assert.match(body.answer, /NOT_FOUND/)
    assert.equal(body.data, null)
  })

  test('an intent whose operation is not deployed is answered honestly, with no data', async () => {
    const { body } = await post({ message: 'stake 1000 mc in mogger' })
    assert.equal(body.intent, 'stake')
    if (app.ctx.operations.some((op) => op.id === 'build_staking_tx')) return
    assert.equal(body.data, null)
    assert.match(body.answer, /not available on this deployment/)
    assert.equal(body.actions[0].endpoint, '/api/agent')
  })

  test('stake without an amount ("what can I stake?") answers the venues and the position, and how to stake', async () => {
    const staker = defiAccountAddresses[defiRoles.stakers.ten]
    const { body } = await post({ message: 'what can I stake?', wallet: staker })
    assert.equal(body.intent, 'stake')
    assert.equal(body.operationId, 'get_defi_staking')
    assert.equal(body.data.wallet.address, staker)
    assert.match(body.answer, /MEGACHAD in mogger .* MC\/MG LP token in jester/)
    assert.match(body.answer, new RegExp(`${staker} has 1,000,000 MEGACHAD staked in mogger`))
    assert.match(body.answer, /"stake 1000 MC in mogger"/)
    assert.equal(body.actions[0].endpoint, `/api/defi/staking?address=${staker}`)
    const { body: anonymous } = await post({ message: 'what can I stake?' })
    assert.equal(anonymous.data.wallet, undefined)
    assert.match(anonymous.answer, /Send your wallet to see your position/)
  })

  test('compare with one party and the request wallet: the named party, then the wallet', async () => {
    const agent = app.devnet.info.accounts.agents[2]!
    const { body } = await post({ message: 'compare demo.mega with me', wallet: agent })
    assert.equal(body.intent, 'compare')
    assert.deepEqual(body.data.sideBySide.map((r: any) => r.address), [getAddress(app.devnet.info.accounts.demoHolder), getAddress(agent)])
  })

  test('schedule without a wallet says what the service does and does not do, calling nothing', async () => {
    const { body } = await post({ message: 'schedule a weekly burn' })
    assert.equal(body.intent, 'schedule')
    assert.equal(body.operationId, null)
    assert.match(body.answer, /does not run recurring burns/)
  })

  test('an unclear message gets the closest intents as suggestions', async () => {
    const { body } = await post({ message: 'banana' })
    assert.equal(body.intent, 'unclear')
    assert.equal(body.data, null)
    assert.ok(body.suggestions.length >= 1 && body.suggestions.length <= 3)
    assert.ok(body.actions.length >= 1)
  })
})

describe('POST /api/agent/chat: LLM refinement', () => {
  test('an unsure message is refined by the configured model', async () => {
    const { body } = await post({ message: 'zorblax?' })
    assert.equal(body.intent, 'price')
    assert.equal(body.classifiedBy, 'llm')
    assert.equal(body.operationId, 'get_price')
    const call = llm.requests.find((r) => r.body.toString().includes('zorblax'))!
    assert.equal(call.url, '/v1/chat/completions')
    assert.equal(call.headers.authorization, 'Bearer sk-test')
    assert.equal(JSON.parse(call.body.toString()).model, 'tiny')
  })

  test('a model answer that is not an intent, or a failing model, leaves the rules\' answer', async () => {
    for (const message of ['drain everything', 'banana split']) {
      const { status, body } = await post({ message })
      assert.equal(status, 200)
      assert.equal(body.intent, 'unclear')
      assert.equal(body.classifiedBy, 'rules')
    }
  })

  test('a clear message never asks the model', async () => {
    const before = llm.requests.length
    await post({ message: 'gallery' })
    assert.equal(llm.requests.length, before)
  })
})

describe('suggested actions are valid calls of this API', () => {
  test('over the whole phrasing corpus, with and without a wallet', async () => {
    const ctx = app.ctx
    const holder = app.devnet.info.accounts.demoHolder
    let checked = 0
    // A reply depends on the message only through its classification and entities: one message
    // of each (intent, ranking, entities) stands for the others (about 580 of 1,469).
    const signature = (message: string) => {
      const entities = extractEntities(message)
      const { intent, ranked } = classify(message, entities)
      return JSON.stringify({ intent, ranked: ranked.map((r) => r.intent), entities: { ...entities, amounts: entities.amounts.map((a) => [a.value, a.token]) } })
    }
    const distinct = new Map([...TRAINING, ...HELD_OUT, ...HELD_OUT_2, ...HELD_OUT_3, ...HELD_OUT_4].map(([, message]) => [signature(message), message]))
    const requests = [...distinct.values()].flatMap((message) => [{ message }, { message, wallet: holder }])
    // Sixteen at a time: the chain reads of one overlap another's, as concurrent clients' do.
    for (let i = 0; i < requests.length; i += 16) {
      const batch = requests.slice(i, i + 16)
      const results = await Promise.all(batch.map((request) => chat(ctx, request)))
      for (const [j, result] of results.entries()) {
        const { message } = batch[j]!
        for (const action of result.actions) {
          const op = ctx.operations.find((o) => o.id === action.operationId)
          assert.ok(op, `${message}: ${action.operationId} is in the registry`)
          assert.equal(action.method, op.method)
          const [path, query] = action.endpoint.split('?')
          const pattern = new RegExp(`^${op.path.replace(/\{\w+\}/g, '([^/]+)')}$`)
          const match = path!.match(pattern)
          assert.ok(match, `${message}: ${action.endpoint} matches ${op.path}`)
          const params = Object.fromEntries([...op.path.matchAll(/\{(\w+)\}/g)].map((m, i) => [m[1]!, decodeURIComponent(match[i + 1]!)]))
          const raw = op.method === 'GET' ? { ...Object.fromEntries(new URLSearchParams(query ?? '')), ...params } : { ...action.body, ...params }
          const parsed = op.input.safeParse(raw)
          assert.ok(parsed.success, `${message}: ${action.method} ${action.endpoint} ${JSON.stringify(action.body)} parses`)
          checked++
        }
      }
    }
    assert.ok(distinct.size > 500 && checked > 1000, `${checked} actions of ${distinct.size} distinct messages checked`)
  })
})
