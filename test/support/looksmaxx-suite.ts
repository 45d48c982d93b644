import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startTestDevnet } from './devnet.ts'
import { startTestApp, getJson, postJson, type TestApp } from './app.ts'
import { createAgent, portraitBase64, type Agent } from './agent.ts'
import type { ImageGenerator } from '../../src/adapters/image/port.ts'
import { createImageGenerator } from '../../src/adapters/image/index.ts'

const E18 = 10n ** 18n

/**
 * Refusals, replays, concurrency and retries of the looksmaxx POST, on one database
 * backend. Every refusal must consume nothing: no USDm moved, no claim left behind.
 */
export function looksmaxxSuite(database: 'pglite' | 'postgres') {
  let devnet: Awaited<ReturnType<typeof startTestDevnet>>
  let app: TestApp
  let image: string
  let requirements: any
  let generatorFailures = 0
  const agents: Agent[] = []

  before(async () => {
    devnet = await startTestDevnet()
    const real = createImageGenerator({ kind: 'local' })
    // Fails the next `generatorFailures` calls, as a flaky provider would.
    const flaky: ImageGenerator = {
      name: 'flaky-local',
      async generate(input) {
        if (generatorFailures > 0) {
          generatorFailures--
          const { AppError } = await import('../../src/errors/app-error.ts')
          throw new AppError('UPSTREAM_FAILED', 'The image provider timed out.', { retryable: true })
        }
        return real.generate(input)
      },
      close: () => real.close?.() ?? Promise.resolve(),
    }
    app = await startTestApp({ rpcUrl: devnet.url, database, env: { RETRY_BASE_MS: '100', RETRY_MAX_MS: '400', WORKER_POLL_MS: '50' }, images: flaky })
    image = await portraitBase64()
    requirements = (await getJson(`${app.url}/api/x402/looksmaxx`)).body.accepts[0]
    for (const index of [5, 6, 7, 8]) {
      const agent = await createAgent(app.url, devnet.url, index)
      await agent.buyTokens('2')
      agents.push(agent)
    }
  })
  after(async () => {
    await app?.stop()
    await devnet?.close()
  })

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
      ['burner is not the sender', { ...good, burnerAddress: agents[1]!.address }, 400, 'BURN_VERIFICATION_FAILED'],
      ['burn and dev swapped roles', { ...good, burnTxHash: devTxHash, devTxHash: burnTxHash }, 400, 'BURN_VERIFICATION_FAILED'],
      ['same hash for both legs of a single transfer', { ...good, devTxHash: burnTxHash }, 400, 'BURN_VERIFICATION_FAILED'],
      ['unknown transaction', { ...good, burnTxHash: `0x${'12'.repeat(32)}` }, 400, 'BURN_VERIFICATION_FAILED'],
      ['no payment at all', { ...good, paymentPayload: undefined }, 402, ''],
      ['payment of 0.5 USDm', { ...good, paymentPayload: await agent.signPayment(requirements, { value: E18 / 2n }) }, 402, ''],
      ['payment to someone else', { ...good, paymentPayload: await agent.signPayment(requirements, { to: agent.address }) }, 402, ''],
    ]
    for (const [name, body, status, code] of cases) {
      const response = await postJson(`${app.url}/api/x402/looksmaxx`, body)
      assert.equal(response.status, status, `${name}: ${JSON.stringify(response.body)}`)
      if (code) assert.equal(response.body.error.code, code, name)
      if (status === 402) {
        assert.equal(response.body.x402Version, 1, name)
        assert.equal(response.headers.get('x-402-version'), '1')
      }
    }
    const oversized = await postJson(`${app.url}/api/x402/looksmaxx`, { ...good, image: Buffer.alloc(5 * 1024 * 1024, 7).toString('base64') })
    assert.ok([400, 413].includes(oversized.status), `oversized image: ${oversized.status}`)
    assert.equal(await agent.usdmBalance(), usdm, 'no USDm moved')
    assert.equal(await submissions(), 0, 'no claim was left behind')

    // The same burns, now with a good payment, still redeem.
    const ok = await postJson(`${app.url}/api/x402/looksmaxx`, good)
    assert.equal(ok.status, 200, JSON.stringify(ok.body))
    assert.equal(usdm - (await agent.usdmBalance()), E18)
  })

  test('a payment that cannot settle releases the burns for another try', async () => {
    const agent = agents[1]!
    const { burnTxHash, devTxHash } = await agent.burn()
    // Signed by this agent but for a wallet without USDm allowance: verification catches it.
    const broke = await createAgent(app.url, devnet.url, 3)
    const bad = await broke.signPayment(requirements)
    const refused = await postJson(`${app.url}/api/x402/looksmaxx`, { burnTxHash, devTxHash, burnerAddress: agent.address, image, paymentPayload: bad })
    assert.equal(refused.status, 402)
    const ok = await postJson(`${app.url}/api/x402/looksmaxx`, {
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
    const responses = await Promise.all(Array.from({ length: 8 }, () => postJson(`${app.url}/api/x402/looksmaxx`, body)))
    const statuses = responses.map((r) => r.status).sort()
    assert.deepEqual(statuses, [200, 409, 409, 409, 409, 409, 409, 409], JSON.stringify(responses.map((r) => r.body)))
    assert.equal(usdm - (await agent.usdmBalance()), E18, 'one settlement')
    assert.equal((await agent.nftBalance()) - nfts, 1n, 'one NFT')
  })

  test('a generator failing twice then succeeding still ends in exactly one NFT', async () => {
    const agent = agents[3]!
    const { burnTxHash, devTxHash } = await agent.burn()
    const usdm = await agent.usdmBalance()
    generatorFailures = 2
    const response = await postJson(`${app.url}/api/x402/looksmaxx`, {
      burnTxHash, devTxHash, burnerAddress: agent.address, image, paymentPayload: await agent.signPayment(requirements),
    })
    assert.equal(response.status, 200, JSON.stringify(response.body))
    assert.equal(generatorFailures, 0, 'both failures happened')
    assert.equal(await agent.ownerOf(BigInt(response.body.tokenId)), agent.address)
    assert.equal(await agent.nftBalance(), 1n)
    assert.equal(usdm - (await agent.usdmBalance()), E18)
    const status = await getJson(`${app.url}/api/x402/looksmaxx/${burnTxHash}`)
    assert.equal(status.body.steps.filter((s: any) => s.step === 'generated').length, 1)
  })
}
