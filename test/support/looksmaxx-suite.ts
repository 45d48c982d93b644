import { test, before } from 'node:test'
import assert from 'node:assert/strict'
import { sharedImages, useApp, type TestApp, type TestDevnet } from './harness.ts'
import { getJson } from './fetch-json.ts'
import { createAgent, portraitBase64, type Agent } from './agent.ts'
import type { ImageGenerator } from '../../src/adapters/image/port.ts'
import { payerOf } from '../../src/x402/payload.ts'
import { statusOnceMinted } from './builders.ts'

const E18 = 10n ** 18n

/**
 * Refusals, replays, concurrency and retries of the looksmaxx POST, on one database
 * backend. Every refusal must consume nothing: no USDm moved, no claim left behind.
 */
export function looksmaxxSuite(database: 'pglite' | 'postgres') {
  const quickRetries = { RETRY_BASE_MS: '100', RETRY_MAX_MS: '400', WORKER_POLL_MS: '50' }
  let devnet: TestDevnet
  let image: string
  let requirements: any
  let generatorFailures = 0
  /** While true, every generation fails (a provider that is down). */
  let generatorDown = false
  /** Every call of the image generator, failed or not. */
  let generations = 0
  /** Payer (lowercase) of every call of the facilitator's settle. */
  const settleCalls: string[] = []
  /** Runs inside the facilitator's settle, after the POST's verify and before settling. */
  let beforeSettle: ((payment: any) => Promise<void>) | undefined
  const agents: Agent[] = []
  const real = sharedImages()
  /** The generator every app of the suite uses: fails the next `generatorFailures` calls, as a flaky provider would. */
  const flaky: ImageGenerator = {
    name: 'flaky-local',
    async generate(input) {
      generations++
      if (generatorDown || generatorFailures > 0) {
        if (!generatorDown) generatorFailures--
        const { AppError } = await import('../../src/errors/app-error.ts')
        throw new AppError('UPSTREAM_FAILED', 'The image provider timed out.', { retryable: true })
      }
      return real.generate(input)
    },
    close: () => real.close?.() ?? Promise.resolve(),
  }
  const app = useApp({
    database,
    // The POST's wait leaves a wide margin for the quick retries of the tests to finish
    // inside it; the "generator down" test meets its 502 on a service of its own that waits 1 s.
    env: { ...quickRetries, LOOKSMAXX_WAIT_SECONDS: '30' },
    images: flaky,
  })

  before(async () => {
    devnet = app.devnet
    // The app's own facilitator, observed: every settle call is counted, and a test may act
    // between the POST's verify and the settlement (as a payer racing the service would).
    const facilitator = app.ctx.pipeline.deps.facilitator
    const settle = facilitator.settle.bind(facilitator)
    facilitator.settle = async (payment, paymentRequirements) => {
      settleCalls.push(payerOf(payment).toLowerCase())
      if (beforeSettle) await beforeSettle(payment)
      return settle(payment, paymentRequirements)
    }
    image = await portraitBase64()
    requirements = (await app.get(`/api/x402/looksmaxx`)).body.accepts[0]
    for (const index of [5, 6, 7, 8, 9]) {
      const agent = await createAgent(app.url, devnet.url, index)
      await agent.buyTokens('2')
      agents.push(agent)
    }
  })

  const settlementsOf = (payer: string) => settleCalls.filter((from) => from === payer.toLowerCase()).length
  /** Settlement transactions the service signed for this payer (its sender's chain_txs). */
  const settleTxsOf = async (payer: string, on: TestApp = app) =>
    Number(
      (await on.ctx.db.query<{ n: string }>('SELECT count(*) AS n FROM chain_txs WHERE idempotency_key LIKE $1', [`settle:${payer.toLowerCase()}:%`]))
        .rows[0]!.n,
    )
  const submissions = async () => Number((await app.ctx.db.query<{ n: string }>('SELECT count(*) AS n FROM submissions')).rows[0]!.n)

  test('every bad input gets its 4xx and consumes nothing', async () => {
    const agent = agents[0]!
    const { burnTxHash, devTxHash } = await agent.burn()
    const good = { burnTxHash, devTxHash, burnerAddress: agent.address, image, paymentPayload: await agent.signPayment(requirements) }
    const usdm = await agent.usdmBalance()
    const cases: Array<[string, Record<string, unknown>, number, string]> = [
      ['missing burnTxHash', { ...good, burnTxHash: undefined }, 400, 'INVALID_INPUT'],
      ['malformed hash', { ...good, burnTxHash: '0x1234' }, 400, 'INVALID_INPUT'],
      ['bad burner address', { ...good, burnerAddress: '0xnope' }, 400, 'INVALID_ADDRESS'],
      ['missing image', { ...good, image: undefined }, 400, 'INVALID_IMAGE'],
      ['not an image', { ...good, image: Buffer.from('hello world, not a picture').toString('base64') }, 400, 'INVALID_IMAGE'],
      ['wrong imageType', { ...good, imageType: 'image/png' }, 400, 'INVALID_IMAGE'],
      ['unsupported imageType', { ...good, imageType: 'image/gif' }, 400, 'INVALID_INPUT'],
      ['payment without signature', { ...good, paymentPayload: { payload: {} } }, 400, 'INVALID_PAYMENT'],
      ['payment without authorization', { ...good, paymentPayload: { payload: { signature: '0xabcd' } } }, 400, 'INVALID_PAYMENT'],
      ['burner is not the sender (and pays)', { ...good, burnerAddress: agents[1]!.address, paymentPayload: await agents[1]!.signPayment(requirements) }, 400, 'BURN_VERIFICATION_FAILED'],
      ['payer is not the burner, without the burner\'s signature', { ...good, paymentPayload: await agents[1]!.signPayment(requirements) }, 400, 'INVALID_SIGNATURE'],
      ['burn and dev swapped roles', { ...good, burnTxHash: devTxHash, devTxHash: burnTxHash }, 400, 'BURN_VERIFICATION_FAILED'],
      ['same hash for both legs of a single transfer', { ...good, devTxHash: burnTxHash }, 400, 'BURN_VERIFICATION_FAILED'],
      ['unknown transaction', { ...good, burnTxHash: `0x${'12'.repeat(32)}` }, 400, 'BURN_VERIFICATION_FAILED'],
      ['no payment at all', { ...good, paymentPayload: undefined }, 402, ''],
      ['payment of 0.5 USDm', { ...good, paymentPayload: await agent.signPayment(requirements, { value: E18 / 2n }) }, 402, ''],
      ['payment to someone else', { ...good, paymentPayload: await agent.signPayment(requirements, { to: agent.address }) }, 402, ''],
    ]
    for (const [name, body, status, code] of cases) {
      const response = await app.post(`/api/x402/looksmaxx`, body)
      assert.equal(response.status, status, `${name}: ${JSON.stringify(response.body)}`)
      if (code) assert.equal(response.body.error.code, code, name)
      if (status === 402) {
        assert.equal(response.body.x402Version, 1, name)
        assert.equal(response.headers.get('x-402-version'), '1')
      }
    }
    // A payment valid for longer than maxTimeoutSeconds would lock the burns that long.
    const longLived = await app.post(`/api/x402/looksmaxx`, {
      ...good,
      paymentPayload: await agent.signPayment(requirements, { validBefore: BigInt(Math.floor(Date.now() / 1000)) + 3600n }),
    })
    assert.equal(longLived.status, 402, JSON.stringify(longLived.body))
    assert.match(longLived.body.error, /invalid_exact_evm_payload_authorization_valid_before/)
    // The standard X-PAYMENT header, present but not base64 JSON: 400, not 402.
    const malformedHeader = await app.post(`/api/x402/looksmaxx`, { ...good, paymentPayload: undefined }, { 'X-PAYMENT': '%%% not base64 json %%%' })
    assert.equal(malformedHeader.status, 400, JSON.stringify(malformedHeader.body))
    assert.equal(malformedHeader.body.error.code, 'INVALID_PAYMENT')
    const oversized = await app.post(`/api/x402/looksmaxx`, { ...good, image: Buffer.alloc(5 * 1024 * 1024, 7).toString('base64') })
    assert.ok([400, 413].includes(oversized.status), `oversized image: ${oversized.status}`)
    assert.equal(await agent.usdmBalance(), usdm, 'no USDm moved')
    assert.equal(await submissions(), 0, 'no claim was left behind')

    // The same burns, now with a good payment, still redeem.
    const ok = await app.post(`/api/x402/looksmaxx`, good)
    assert.equal(ok.status, 200, JSON.stringify(ok.body))
    assert.equal(usdm - (await agent.usdmBalance()), E18)
    assert.equal(settlementsOf(agent.address), 1, 'only the good payment was ever settled')
  })

  test('a facilitator refusing at settlement (after verify accepted) releases the claim; the burns redeem later', async () => {
    const agent = agents[4]!
    const elsewhere = agents[0]!
    const { burnTxHash, devTxHash } = await agent.burn()
    const usdm = await agent.usdmBalance()
    const nfts = await agent.nftBalance()
    const body = { burnTxHash, devTxHash, burnerAddress: agent.address, image }
    // Verify passes at the POST; then, before the settlement, the payer moves all its USDm away.
    const { encodeFunctionData, erc20Abi } = await import('viem')
    const transferUsdm = (to: `0x${string}`, amount: bigint) =>
      ({ to: agent.contracts.usdm!, data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, amount] }) })
    beforeSettle = async () => {
      beforeSettle = undefined
      await agent.send(transferUsdm(elsewhere.address, usdm))
    }
    const refused = await app.post(`/api/x402/looksmaxx`, { ...body, paymentPayload: await agent.signPayment(requirements) })
    assert.equal(beforeSettle, undefined, 'the settle call was reached, so verify had accepted')
    assert.equal(refused.status, 402, JSON.stringify(refused.body))
    assert.match(refused.body.error, /did not settle: insufficient_funds/)
    assert.equal(refused.headers.get('x-402-version'), '1')
    assert.equal(await agent.nftBalance(), nfts, 'nothing minted')
    const claim = await app.get(`/api/x402/looksmaxx/${burnTxHash}`)
    assert.equal(claim.status, 404, 'the claim was released')
    assert.equal(claim.body.error.code, 'NOT_FOUND')
    assert.equal(await settleTxsOf(agent.address), 0, 'no settlement transaction was signed')

    // The USDm comes back; the same burns redeem with a good payment.
    await elsewhere.send(transferUsdm(agent.address, usdm))
    const settleTxs = await settleTxsOf(agent.address)
    const ok = await app.post(`/api/x402/looksmaxx`, { ...body, paymentPayload: await agent.signPayment(requirements) })
    assert.equal(ok.status, 200, JSON.stringify(ok.body))
    assert.equal(await agent.ownerOf(BigInt(ok.body.tokenId)), agent.address)
    assert.equal((await agent.nftBalance()) - nfts, 1n, 'one NFT')
    assert.equal(usdm - (await agent.usdmBalance()), E18, 'exactly 1 USDm paid')
    assert.equal((await settleTxsOf(agent.address)) - settleTxs, 1, 'one settlement transaction')
  })

  test('a payment that cannot settle releases the burns for another try', async () => {
    const agent = agents[1]!
    const { burnTxHash, devTxHash } = await agent.burn()
    // Signed by this agent but for a wallet without USDm allowance: verification catches it.
    const broke = await createAgent(app.url, devnet.url, 3)
    const bad = await broke.signPayment(requirements)
    // The burner lets that wallet pay (RedeemBurn for that payer), so the payment itself is judged.
    const consent = await agent.signRedeem({ burnTxHash, devTxHash, image, payer: broke.address })
    const refused = await app.post(`/api/x402/looksmaxx`, { burnTxHash, devTxHash, burnerAddress: agent.address, image, ...consent, paymentPayload: bad })
    assert.equal(refused.status, 402, JSON.stringify(refused.body))
    const ok = await app.post(`/api/x402/looksmaxx`, {
      burnTxHash, devTxHash, burnerAddress: agent.address, image, paymentPayload: await agent.signPayment(requirements),
    })
    assert.equal(ok.status, 200, JSON.stringify(ok.body))
  })

  test('8 concurrent identical submissions: one 200, the rest 409; one NFT, one settlement', async () => {
    const agent = agents[2]!
    const { burnTxHash, devTxHash } = await agent.burn()
    const body = { burnTxHash, devTxHash, burnerAddress: agent.address, image, paymentPayload: await agent.signPayment(requirements) }
    const usdm = await agent.usdmBalance()
    const nfts = await agent.nftBalance()
    const generationsBefore = generations
    const responses = await Promise.all(Array.from({ length: 8 }, () => app.post(`/api/x402/looksmaxx`, body)))
    const statuses = responses.map((r) => r.status).sort()
    assert.deepEqual(statuses, [200, 409, 409, 409, 409, 409, 409, 409], JSON.stringify(responses.map((r) => r.body)))
    assert.equal(usdm - (await agent.usdmBalance()), E18, 'one settlement')
    assert.equal((await agent.nftBalance()) - nfts, 1n, 'one NFT')
    assert.equal(generations - generationsBefore, 1, 'only the claim winner generated a portrait')
    assert.equal(settlementsOf(agent.address), 1, 'settle was called once')
    assert.equal(await settleTxsOf(agent.address), 1, 'one settlement transaction was signed')
  })

  test('a generator failing twice then succeeding still ends in exactly one NFT', async () => {
    const agent = agents[3]!
    const { burnTxHash, devTxHash } = await agent.burn()
    const usdm = await agent.usdmBalance()
    generatorFailures = 2
    const response = await app.post(`/api/x402/looksmaxx`, {
      burnTxHash, devTxHash, burnerAddress: agent.address, image, paymentPayload: await agent.signPayment(requirements),
    })
    assert.equal(response.status, 200, JSON.stringify(response.body))
    assert.equal(generatorFailures, 0, 'both failures happened')
    assert.equal(await agent.ownerOf(BigInt(response.body.tokenId)), agent.address)
    assert.equal(await agent.nftBalance(), 1n)
    assert.equal(usdm - (await agent.usdmBalance()), E18)
    const status = await app.get(`/api/x402/looksmaxx/${burnTxHash}`)
    assert.equal(status.body.steps.filter((s: any) => s.step === 'generated').length, 1)
  })

  test('a generator down longer than the wait: 502 with the status link, the worker retries, then one NFT', async () => {
    const agent = agents[4]!
    if ((await agent.coinBalance()) < 225_000n * E18) await agent.buyTokens('2')
    const { burnTxHash, devTxHash } = await agent.burn()
    const usdm = await agent.usdmBalance()
    const nfts = await agent.nftBalance()
    // Another service on its own database, with the same generator and keys (the senders take
    // the chain's pending nonce), whose POST waits 1 s instead of the suite's 30.
    const quick = await app.another({ database, env: { ...quickRetries, LOOKSMAXX_WAIT_SECONDS: '1' }, images: flaky })
    const settleTxs = await settleTxsOf(agent.address, quick)
    generatorDown = true
    let recovered = false
    try {
      const response = await quick.post(`/api/x402/looksmaxx`, {
        burnTxHash, devTxHash, burnerAddress: agent.address, image, paymentPayload: await agent.signPayment(requirements),
      })
      assert.equal(response.status, 502, JSON.stringify(response.body))
      assert.equal(response.body.error.code, 'UPSTREAM_FAILED')
      assert.equal(response.body.error.details.requestId, response.headers.get('x-request-id'), 'the 502 names its request')
      assert.match(response.body.error.message, /paid for and owed/, 'settled: the portrait is owed')
      const statusUrl: string = response.body.error.details.statusUrl
      assert.equal(statusUrl, `${quick.url}/api/x402/looksmaxx/${burnTxHash}`)

      const failing = (await getJson(statusUrl)).body
      assert.equal(failing.done, false)
      assert.equal(failing.status, 'settled', 'paid, not yet generated')
      assert.ok(failing.retry, JSON.stringify(failing))
      assert.ok(failing.retry.attempts >= 1, JSON.stringify(failing.retry))
      assert.match(failing.retry.lastError, /image provider timed out/)
      assert.ok(!Number.isNaN(Date.parse(failing.retry.nextAttemptAt)))
      assert.equal(failing.result, null)

      generatorDown = false
      recovered = true
      const status = await statusOnceMinted(async () => (await getJson(statusUrl)).body, { intervalMs: 100 })
      assert.equal(status.status, 'minted', JSON.stringify(status))
      assert.equal(status.retry, null)
      assert.equal(await agent.ownerOf(BigInt(status.result.tokenId)), agent.address)
      assert.equal((await agent.nftBalance()) - nfts, 1n, 'exactly one NFT')
      assert.equal(usdm - (await agent.usdmBalance()), E18, 'exactly 1 USDm paid')
      assert.equal(status.steps.filter((s: any) => s.step === 'settled').length, 1)
      assert.equal(status.steps.filter((s: any) => s.step === 'generated').length, 1)
      assert.equal((await settleTxsOf(agent.address, quick)) - settleTxs, 1, 'one settlement transaction')
    } finally {
      if (!recovered) generatorDown = false
      await quick.stop()
    }
  })
}
