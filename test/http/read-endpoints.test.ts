import { test, describe } from 'node:test'
import assert from 'node:assert/strict'
import { getAddress } from 'viem'
import { useApp } from '../support/harness.ts'

const app = useApp()

const isErrorBody = (body: any, code: string) => {
  assert.equal(body.error.code, code)
  assert.equal(typeof body.error.message, 'string')
  assert.ok(body.error.message.length > 10, 'the message is a sentence for a human')
}

describe('GET /api/stats', () => {
  test('reports the real supply of the token in whole tokens', async () => {
    const { status, body, headers } = await app.get(`/api/stats`)
    assert.equal(status, 200)
    assert.equal(body.totalSupply, 1_000_000_000)
    assert.equal(typeof body.tokensBurned, 'number')
    assert.equal(body.circulatingSupply, body.totalSupply - body.tokensBurned)
    assert.equal(body.totalBurns, 0)
    assert.equal(headers.get('cache-control'), 'public, no-cache')
  })
})

describe('GET /api/price', () => {
  test('prices the token from the pool and costs a burn', async () => {
    const { status, body } = await app.get(`/api/price`)
    assert.equal(status, 200)
    assert.ok(body.price.coinPerEth > 1000, `coinPerEth ${body.price.coinPerEth}`)
    assert.ok(Math.abs(body.price.ethPerCoin * body.price.coinPerEth - 1) < 1e-9)
    assert.match(body.price.ethPerMillionCoin, /^\d+(\.\d+)?$/)
    assert.equal(body.burnCost.tokensRequired, 225000)
    assert.equal(body.burnCost.infraFeeUsdm, 1)
    assert.ok(Math.abs(body.burnCost.estimatedEth - body.price.ethPerCoin * 225000) < 1e-9)
    assert.equal(body.token.address, app.devnet.info.contracts.token)
    assert.equal(body.pool.address, app.devnet.info.contracts.pool)
    assert.ok(!Number.isNaN(Date.parse(body.timestamp)))
    assert.deepEqual(body.chain, { name: 'MegaETH', chainId: 4326, rpc: app.devnet.url })
  })
})

describe('GET /api/wallet', () => {
  test('the demo holder can burn', async () => {
    const holder = app.devnet.info.accounts.demoHolder
    const { status, body } = await app.get(`/api/wallet?address=${holder.toLowerCase()}`)
    assert.equal(status, 200)
    assert.equal(body.address, getAddress(holder), 'addresses come back checksummed')
    assert.equal(body.balances.coin, 1_000_000)
    assert.equal(body.balances.coinWei, (1_000_000n * 10n ** 18n).toString())
    assert.equal(body.balances.looksmaxxedNFTs, 0)
    assert.match(body.balances.eth, /^\d+(\.\d+)?$/)
    assert.deepEqual(
      { canBurn: body.burnEligibility.canBurn, tokensNeeded: body.burnEligibility.tokensNeeded, burnRequirement: body.burnEligibility.burnRequirement },
      { canBurn: true, tokensNeeded: 0, burnRequirement: 225000 },
    )
    assert.deepEqual(body.earlyAccess, { instantAccess: false, referralPath: true, eligible: true })
  })

  test('an agent without tokens needs the whole burn', async () => {
    const agent = app.devnet.info.accounts.agents[0]
    const { body } = await app.get(`/api/wallet?address=${agent}`)
    assert.equal(body.burnEligibility.canBurn, false)
    assert.equal(body.burnEligibility.tokensNeeded, 225000)
    assert.equal(body.earlyAccess.eligible, false)
  })

  for (const bad of ['0x123', 'not-an-address', '0xZZ3456789012345678901234567890123456789a', '']) {
    test(`400 INVALID_ADDRESS for ${JSON.stringify(bad)}`, async () => {
      const { status, body } = await app.get(`/api/wallet?address=${encodeURIComponent(bad)}`)
      assert.equal(status, 400)
      isErrorBody(body, 'INVALID_ADDRESS')
      assert.equal(body.error.details.field, 'address')
    })
  }

  test('400 when the address is missing', async () => {
    const { status, body } = await app.get(`/api/wallet`)
    assert.equal(status, 400)
    isErrorBody(body, 'INVALID_ADDRESS')
    assert.equal(body.error.details.field, 'address')
  })
})

describe('GET /api/bridge', () => {
  test('lists bridges and the chain tokens', async () => {
    const { status, body } = await app.get(`/api/bridge`)
    assert.equal(status, 200)
    assert.equal(body.chain.chainId, 4326)
    assert.equal(body.chain.rpc, app.devnet.url)
    assert.ok(body.bridges.some((b: any) => b.type === 'canonical'))
    assert.ok(body.bridges.some((b: any) => b.type === 'aggregator'))
    for (const key of ['megachad', 'weth', 'usdm']) assert.equal(body.tokens[key].decimals, 18)
    assert.equal(body.tokens.megachad.address, app.devnet.info.contracts.token)
    assert.equal(body.tokens.weth.address, getAddress('0x4200000000000000000000000000000000000006'))
    assert.deepEqual(Object.keys(body.flow), ['step1', 'step2', 'step3', 'step4'])
  })
})

describe('GET /api/x402/quote', () => {
  test('without ethAmount: swap venue, addresses and burn requirements', async () => {
    const { status, body } = await app.get(`/api/x402/quote`)
    assert.equal(status, 200)
    assert.equal(body.dex.swapRouter, app.devnet.info.contracts.swapRouter)
    assert.equal(body.dex.quoter, app.devnet.info.contracts.quoterV2)
    assert.equal(body.dex.feeTier, 10000)
    assert.equal(body.burnRequirements.totalAmount, (225_000n * 10n ** 18n).toString())
    assert.equal(body.burnRequirements.trenFundWallet, app.devnet.info.accounts.fundWallet)
  })

  test('ETH decimal and the same amount in wei give the same quote', async () => {
    const a = await app.get(`/api/x402/quote?ethAmount=0.5`)
    const b = await app.get(`/api/x402/quote?ethAmount=500000000000000000`)
    assert.equal(a.status, 200)
    assert.deepEqual(a.body.quote, b.body.quote)
    assert.equal(a.body.quote.ethInWei, '500000000000000000')
    assert.equal(a.body.swap.value, '500000000000000000')
    assert.equal(a.body.swap.functionName, 'exactInputSingle')
    assert.equal(a.body.swap.params.recipient, '<YOUR_ADDRESS>')
    const out = BigInt(a.body.quote.coinOutWei)
    assert.equal(BigInt(a.body.swap.params.amountOutMinimum), (out * 98n) / 100n, '2% slippage')
    assert.equal(a.body.quote.burnRequirement, 225000)
    assert.equal(a.body.quote.hasEnoughForBurn, out >= 225_000n * 10n ** 18n)
  })

  for (const bad of ['abc', '-1', '0', '0.0', '1e18', '0.0000000000000000001', '1,5']) {
    test(`400 INVALID_AMOUNT for ethAmount=${bad}`, async () => {
      const { status, body } = await app.get(`/api/x402/quote?ethAmount=${encodeURIComponent(bad)}`)
      assert.equal(status, 400)
      isErrorBody(body, 'INVALID_AMOUNT')
    })
  }
})

describe('GET /.well-known/service-protocol.json', () => {
  test('lists every deployed contract with its address and key functions', async () => {
    const { status, body } = await app.get(`/.well-known/service-protocol.json`)
    assert.equal(status, 200)
    for (const [name, address] of Object.entries(app.devnet.info.contracts)) {
      assert.equal(body.contracts[name]?.address, address, name)
      assert.ok(body.contracts[name].keyFunctions.length > 0, `${name} has key functions`)
    }
    assert.equal(body.constants.fundWallet, app.devnet.info.accounts.fundWallet)
    assert.equal(body.constants.facilitator, app.devnet.info.accounts.facilitator)
    assert.ok(body.agentEndpoints.some((e: any) => e.path === '/api/x402/quote'))
  })
})

describe('conventions', () => {
  test('an unknown path gets the JSON error body', async () => {
    const { status, body } = await app.get(`/api/nope`)
    assert.equal(status, 404)
    isErrorBody(body, 'NOT_FOUND')
  })

  test('a known path with the wrong method gets 405', async () => {
    const { status, body } = await app.request('POST', `/api/price`)
    assert.equal(status, 405)
    isErrorBody(body, 'METHOD_NOT_ALLOWED')
  })

  test('a conditional GET with the ETag gets 304', async () => {
    const first = await fetch(`${app.url}/api/bridge`)
    const etag = first.headers.get('etag')!
    assert.ok(etag)
    const second = await fetch(`${app.url}/api/bridge`, { headers: { 'if-none-match': etag } })
    assert.equal(second.status, 304)
  })
})

describe('caching', () => {
  test('answers a transaction is built from are never served stale; pure reads may be while they refresh', async () => {
    const holder = '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65'
    for (const path of ['/api/x402/quote?ethAmount=0.1', '/api/price', `/api/wallet?address=${holder}`]) {
      const { headers } = await app.get(`${path}`)
      assert.doesNotMatch(headers.get('cache-control')!, /stale/, path)
    }
    for (const path of ['/.well-known/openapi.json', '/api/agent']) {
      const { headers } = await app.get(`${path}`)
      assert.match(headers.get('cache-control')!, /max-age=\d+, stale-while-revalidate=\d+/, path)
    }
  })

  test('reads that change with the chain are revalidated by clients on every use (issue 10)', async () => {
    for (const path of ['/api/stats', '/api/gallery', '/api/chadboard', '/api/price', '/api/x402/quote?ethAmount=0.1']) {
      const response = await fetch(`${app.url}${path}`)
      assert.equal(response.headers.get('cache-control'), 'public, no-cache', path)
      const etag = response.headers.get('etag')!
      assert.equal((await fetch(`${app.url}${path}`, { headers: { 'if-none-match': etag } })).status, 304, `${path}: 304 while nothing changed`)
    }
  })
})
