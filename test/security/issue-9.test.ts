import { test, before, describe } from 'node:test'
import assert from 'node:assert/strict'
import sharp from 'sharp'
import { crc32 } from 'node:zlib'
import { useApp, type TestDevnet } from '../support/harness.ts'
import { createAgent, portraitBase64, type Agent } from '../support/agent.ts'
import { AppError } from '../../src/errors/app-error.ts'
import { payerOf } from '../../src/x402/payload.ts'

/**
 * Issue 9, "Burns belong to their burner": each attack of the security probe, run against the
 * devnet as an attacker would, is refused with a clear 4xx and consumes nothing; the victim's
 * own submission succeeds afterwards.
 */
const E18 = 10n ** 18n
let devnet: TestDevnet
const app = useApp({ env: { RETRY_BASE_MS: '100', RETRY_MAX_MS: '400', WORKER_POLL_MS: '50', LOOKSMAXX_WAIT_SECONDS: '8' } })
let image: string
let attackerImage: string
let requirements: any
let victim: Agent
let attacker: Agent
/** Replaces the facilitator's settle for one call (after the POST's checks, before settlement). */
let settleHook: ((payment: any, settle: () => Promise<any>) => Promise<any>) | undefined

before(async () => {
  devnet = app.devnet
  const facilitator = app.ctx.pipeline.deps.facilitator
  const settle = facilitator.settle.bind(facilitator)
  facilitator.settle = async (payment, paymentRequirements) => {
    const hook = settleHook
    settleHook = undefined
    return hook ? hook(payment, () => settle(payment, paymentRequirements)) : settle(payment, paymentRequirements)
  }
  image = await portraitBase64()
  attackerImage = (await sharp({ create: { width: 256, height: 256, channels: 3, background: { r: 255, g: 0, b: 0 } } }).png().toBuffer()).toString('base64')
  requirements = (await app.get(`/api/x402/looksmaxx`)).body.accepts[0]
  victim = await createAgent(app.url, devnet.url, 5)
  attacker = await createAgent(app.url, devnet.url, 6)
  await victim.buyTokens('3')
})

const submissions = async () => Number((await app.ctx.db.query<{ n: string }>('SELECT count(*) AS n FROM submissions')).rows[0]!.n)
const looksmaxx = (body: unknown) => app.post(`/api/x402/looksmaxx`, body)
const generate = (body: unknown) => app.post(`/api/generate`, body)
/** Burns from a wallet that holds enough tokens, buying more first when it does not. */
async function burnFresh(agent: Agent) {
  if ((await agent.coinBalance()) < 225_000n * E18) await agent.buyTokens('2')
  return agent.burn()
}
const nowSeconds = () => BigInt(Math.floor(Date.now() / 1000))

/** What the user checks after a refusal: nothing claimed, no USDm moved, no NFT. */
async function assertNothingConsumed(burnTxHash: string, balances: { victimUsdm: bigint; attackerUsdm: bigint; nfts: bigint; rows: number }) {
  const held = await app.get(`/api/x402/looksmaxx/${burnTxHash}`)
  assert.equal(held.status, 404, 'no submission holds the burns')
  assert.equal(held.body.error.code, 'NOT_FOUND')
  assert.equal(await submissions(), balances.rows, 'no submission row')
  assert.equal(await victim.usdmBalance(), balances.victimUsdm, 'the victim paid nothing')
  assert.equal(await attacker.usdmBalance(), balances.attackerUsdm, 'the attacker paid nothing')
  assert.equal(await victim.nftBalance(), balances.nfts, 'no NFT minted')
}
const snapshot = async () => ({ victimUsdm: await victim.usdmBalance(), attackerUsdm: await attacker.usdmBalance(), nfts: await victim.nftBalance(), rows: await submissions() })

describe('the lock: a stranger cannot hold the victim\'s burns', () => {
  test('a stranger\'s payment (validAfter = now) for the victim\'s burns is 400; the victim then redeems', async () => {
    const { burnTxHash, devTxHash } = await burnFresh(victim)
    const before = await snapshot()
    const body = { burnTxHash, devTxHash, burnerAddress: victim.address, image }
    // The probe's request: the victim's burns, the attacker's payment signed valid from this second.
    const lock = await looksmaxx({ ...body, paymentPayload: await attacker.signPayment(requirements, { validAfter: nowSeconds() }) })
    assert.equal(lock.status, 400, JSON.stringify(lock.body))
    assert.equal(lock.body.error.code, 'INVALID_SIGNATURE')
    assert.match(lock.body.error.message, /not the burner/)
    // The attacker's own RedeemBurn, claiming to be the burner's, does not recover to the burner.
    const forged = await attacker.signRedeem({ burnTxHash, devTxHash, image, payer: attacker.address })
    const forgedLock = await looksmaxx({ ...body, ...forged, paymentPayload: await attacker.signPayment(requirements) })
    assert.equal(forgedLock.status, 400, JSON.stringify(forgedLock.body))
    assert.equal(forgedLock.body.error.code, 'INVALID_SIGNATURE')
    await assertNothingConsumed(burnTxHash, before)

    const ok = await looksmaxx({ ...body, paymentPayload: await victim.signPayment(requirements) })
    assert.equal(ok.status, 200, JSON.stringify(ok.body))
    assert.equal(await victim.ownerOf(BigInt(ok.body.tokenId)), victim.address)
    assert.equal(before.victimUsdm - (await victim.usdmBalance()), E18, 'the victim paid 1 USDm once')
  })

  test('an honest payment not valid yet (validAfter ahead of the clock) is refused at once (402), nothing claimed; re-signed it redeems', async () => {
    const { burnTxHash, devTxHash } = await burnFresh(victim)
    const before = await snapshot()
    const body = { burnTxHash, devTxHash, burnerAddress: victim.address, image }
    const early = await looksmaxx({ ...body, paymentPayload: await victim.signPayment(requirements, { validAfter: nowSeconds() + 1n }) })
    assert.equal(early.status, 402, JSON.stringify(early.body))
    assert.match(early.body.error, /invalid_exact_evm_payload_authorization_valid_after/)
    // validAfter = now exactly is refused too (the forwarder needs block.timestamp > validAfter),
    // but end to end it is a race with the clock: a request checked in the next second is
    // rightly accepted. The boundary is asserted with a fixed clock in src/x402/verify-payment.test.ts.
    await assertNothingConsumed(burnTxHash, before)
    const ok = await looksmaxx({ ...body, paymentPayload: await victim.signPayment(requirements) })
    assert.equal(ok.status, 200, JSON.stringify(ok.body))
  })

  test('a settlement the forwarder would revert is refused before the claim, whatever the facilitator says', async () => {
    const { burnTxHash, devTxHash } = await burnFresh(victim)
    const before = await snapshot()
    const body = { burnTxHash, devTxHash, burnerAddress: victim.address, image }
    // A facilitator that accepts anything at verify (a remote one may be laxer than the chain).
    const facilitator = app.ctx.pipeline.deps.facilitator
    const verify = facilitator.verify
    facilitator.verify = async (payment) => ({ isValid: true, payer: payerOf(payment) })
    try {
      const payment = await victim.signPayment(requirements, { validAfter: nowSeconds() + 120n })
      const refused = await looksmaxx({ ...body, paymentPayload: payment })
      assert.equal(refused.status, 402, JSON.stringify(refused.body))
      assert.match(refused.body.error, /would not settle.*not yet valid/)
      // A cancelled authorization: the simulation reverts too.
      const cancelled = await victim.signPayment(requirements)
      await victim.cancelAuthorization(requirements, cancelled.payload.authorization.nonce as `0x${string}`)
      const refusedCancelled = await looksmaxx({ ...body, paymentPayload: cancelled })
      assert.equal(refusedCancelled.status, 402, JSON.stringify(refusedCancelled.body))
      assert.match(refusedCancelled.body.error, /used or canceled/)
    } finally {
      facilitator.verify = verify
    }
    await assertNothingConsumed(burnTxHash, before)
    const ok = await looksmaxx({ ...body, paymentPayload: await victim.signPayment(requirements) })
    assert.equal(ok.status, 200, JSON.stringify(ok.body))
  })

  test('an authorization cancelled after the claim, with the settle outcome unknown, releases the claim at once', async () => {
    const { burnTxHash, devTxHash } = await burnFresh(victim)
    const before = await snapshot()
    const body = { burnTxHash, devTxHash, burnerAddress: victim.address, image }
    // Between the claim and the settlement the payer cancels; the facilitator's answer is lost.
    settleHook = async (payment) => {
      await victim.cancelAuthorization(requirements, payment.payload.authorization.nonce)
      throw new AppError('UPSTREAM_FAILED', 'The payment facilitator did not answer /settle.', { retryable: true })
    }
    const started = Date.now()
    const refused = await looksmaxx({ ...body, paymentPayload: await victim.signPayment(requirements) })
    assert.equal(refused.status, 402, JSON.stringify(refused.body))
    assert.match(refused.body.error, /cancelled the payment authorization/)
    assert.ok(Date.now() - started < 5000, 'answered at once, not after the authorization expired')
    assert.equal(settleHook, undefined, 'the settlement was reached')
    await assertNothingConsumed(burnTxHash, before)
    const ok = await looksmaxx({ ...body, paymentPayload: await victim.signPayment(requirements) })
    assert.equal(ok.status, 200, JSON.stringify(ok.body))
  })
})

describe('the hijack: a stranger cannot redeem the victim\'s burn', () => {
  test('POST /api/generate with the victim\'s burn and the attacker\'s image is 400; the victim then redeems its own', async () => {
    const { burnTxHash, devTxHash } = await burnFresh(victim)
    const before = await snapshot()
    const hijack = { burnTxHash, devTxHash, burnerAddress: victim.address, image: attackerImage }
    const bare = await generate(hijack)
    assert.equal(bare.status, 400, JSON.stringify(bare.body))
    assert.equal(bare.body.error.code, 'INVALID_SIGNATURE')
    const own = await generate({ ...hijack, ...(await attacker.signRedeem({ burnTxHash, devTxHash, image: attackerImage })) })
    assert.equal(own.status, 400, JSON.stringify(own.body))
    assert.equal(own.body.error.code, 'INVALID_SIGNATURE')
    // The victim's signature, seen in flight, bound to the victim's image: useless with another.
    const victims = await victim.signRedeem({ burnTxHash, devTxHash, image })
    const reused = await generate({ ...hijack, ...victims })
    assert.equal(reused.status, 400, JSON.stringify(reused.body))
    assert.equal(reused.body.error.code, 'INVALID_SIGNATURE')
    // ...and bound to "no payer": useless on the paid path with the attacker's payment.
    const paid = await looksmaxx({ burnTxHash, devTxHash, burnerAddress: victim.address, image, ...victims, paymentPayload: await attacker.signPayment(requirements) })
    assert.equal(paid.status, 400, JSON.stringify(paid.body))
    assert.equal(paid.body.error.code, 'INVALID_SIGNATURE')
    const expired = await generate({ burnTxHash, devTxHash, burnerAddress: victim.address, image, ...(await victim.signRedeem({ burnTxHash, devTxHash, image, deadline: Number(nowSeconds()) - 1 })) })
    assert.equal(expired.status, 400, JSON.stringify(expired.body))
    assert.equal(expired.body.error.code, 'SIGNATURE_EXPIRED')
    await assertNothingConsumed(burnTxHash, before)

    const ok = await looksmaxx({ burnTxHash, devTxHash, burnerAddress: victim.address, image, paymentPayload: await victim.signPayment(requirements) })
    assert.equal(ok.status, 200, JSON.stringify(ok.body))
    assert.equal(await victim.ownerOf(BigInt(ok.body.tokenId)), victim.address)
  })

  test('the burner signs: /api/generate redeems, and a sponsor may pay for the burner', async () => {
    const free = await burnFresh(victim)
    const redeemed = await generate({ ...free, burnerAddress: victim.address, image, ...(await victim.signRedeem({ ...free, image })) })
    assert.equal(redeemed.status, 200, JSON.stringify(redeemed.body))
    assert.equal(await victim.ownerOf(BigInt(redeemed.body.tokenId)), victim.address)

    const sponsored = await burnFresh(victim)
    const attackerUsdm = await attacker.usdmBalance()
    const ok = await looksmaxx({
      ...sponsored, burnerAddress: victim.address, image,
      ...(await victim.signRedeem({ ...sponsored, image, payer: attacker.address })),
      paymentPayload: await attacker.signPayment(requirements),
    })
    assert.equal(ok.status, 200, JSON.stringify(ok.body))
    assert.equal(await victim.ownerOf(BigInt(ok.body.tokenId)), victim.address, 'the NFT goes to the burner')
    assert.equal(attackerUsdm - (await attacker.usdmBalance()), E18, 'the sponsor paid')
  })
})

/** A PNG header that says 40 megapixels, 16-bit RGBA, interlaced (Adam7), with a small body. */
function bombPng(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4)
    length.writeUInt32BE(data.length)
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
    const crc = Buffer.alloc(4)
    crc.writeUInt32BE(crc32(body))
    return Buffer.concat([length, body, crc])
  }
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(8000, 0)
  ihdr.writeUInt32BE(5000, 4)
  ihdr[8] = 16
  ihdr[9] = 6
  ihdr[12] = 1
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', Buffer.alloc(480_000, 0)), chunk('IEND', Buffer.alloc(0))])
}

describe('the image: cheap checks before expensive ones', () => {
  test('12 decompression bombs in parallel are refused from their header, without decoding', async () => {
    const { burnTxHash, devTxHash } = await burnFresh(victim)
    const before = await snapshot()
    const bomb = bombPng().toString('base64')
    const rss = process.memoryUsage().rss
    const payments = await Promise.all(Array.from({ length: 12 }, () => victim.signPayment(requirements)))
    const cpu = process.cpuUsage()
    const responses = await Promise.all(Array.from({ length: 12 }, (_, i) => looksmaxx({ burnTxHash, devTxHash, burnerAddress: victim.address, image: bomb, paymentPayload: payments[i]! })))
    for (const response of responses) {
      assert.equal(response.status, 400, JSON.stringify(response.body))
      assert.equal(response.body.error.code, 'INVALID_IMAGE')
      assert.match(response.body.error.message, /needs 305 MB once decoded; at most 128 MB/)
    }
    // CPU time of this process (the service and its image threads), not wall time, so a busy
    // machine does not fail it: one full decode of this image costs about 0.85 s of CPU, twelve
    // about 10 s; refused from the header they cost milliseconds each.
    const used = process.cpuUsage(cpu)
    assert.ok(used.user + used.system < 4_000_000, `refused without decoding (${Math.round((used.user + used.system) / 1000)} ms of CPU)`)
    assert.ok(process.memoryUsage().rss - rss < 150 * 1024 * 1024, 'no image was decoded')
    await assertNothingConsumed(burnTxHash, before)
    const ok = await looksmaxx({ burnTxHash, devTxHash, burnerAddress: victim.address, image, paymentPayload: await victim.signPayment(requirements) })
    assert.equal(ok.status, 200, JSON.stringify(ok.body))
  })

  test('the burns and the payment are checked before the full decode', async () => {
    // A valid header over a truncated body: only a full decode finds out.
    const jpeg = await sharp({ create: { width: 512, height: 512, channels: 3, background: { r: 9, g: 99, b: 199 } } }).jpeg().toBuffer()
    const truncated = jpeg.subarray(0, 400).toString('base64')
    const unknown = `0x${'ab'.repeat(32)}`
    const noBurns = await looksmaxx({ burnTxHash: unknown, devTxHash: unknown, burnerAddress: victim.address, image: truncated, paymentPayload: await victim.signPayment(requirements) })
    assert.equal(noBurns.status, 400, JSON.stringify(noBurns.body))
    assert.equal(noBurns.body.error.code, 'BURN_VERIFICATION_FAILED', 'the burns were read before any decode')
    const { burnTxHash, devTxHash } = await burnFresh(victim)
    const badPayment = await looksmaxx({ burnTxHash, devTxHash, burnerAddress: victim.address, image: truncated, paymentPayload: await victim.signPayment(requirements, { value: E18 / 2n }) })
    assert.equal(badPayment.status, 402, 'the payment was checked before any decode')
    const decoded = await looksmaxx({ burnTxHash, devTxHash, burnerAddress: victim.address, image: truncated, paymentPayload: await victim.signPayment(requirements) })
    assert.equal(decoded.status, 400, JSON.stringify(decoded.body))
    assert.equal(decoded.body.error.code, 'INVALID_IMAGE')
    const ok = await looksmaxx({ burnTxHash, devTxHash, burnerAddress: victim.address, image, paymentPayload: await victim.signPayment(requirements) })
    assert.equal(ok.status, 200, JSON.stringify(ok.body))
  })
})

describe('gasless: one relay per burner nonce', () => {
  test('one nonce signed with 4 deadlines and posted together: one transaction, the same answer for all; replays answer 200', async () => {
    const burner = await createAgent(app.url, devnet.url, 7)
    await burner.buyTokens('1')
    const first = (await app.get(`/api/gasless/burn?address=${burner.address}`)).body
    await burner.send({ to: first.approval.transaction.to, data: first.approval.transaction.data })
    const typed = (await app.get(`/api/gasless/burn?address=${burner.address}`)).body.signTypedData
    const sign = async (deadline: number) => ({
      burner: burner.address,
      deadline,
      signature: await burner.account.signTypedData({ domain: typed.domain, types: typed.types, primaryType: 'BurnRequest', message: { burner: burner.address, nonce: BigInt(typed.message.nonce), deadline: BigInt(deadline) } }),
    })
    const soon = Number(nowSeconds()) + 4
    const bodies = await Promise.all([soon, typed.message.deadline, typed.message.deadline + 1, typed.message.deadline + 2].map(sign))
    const coins = await burner.coinBalance()
    const responses = await Promise.all(bodies.map((body) => app.post(`/api/gasless/burn`, body)))
    for (const response of responses) assert.equal(response.status, 200, JSON.stringify(response.body))
    assert.equal(new Set(responses.map((r) => r.body.txHash)).size, 1, 'one relay answers every signature of the nonce')
    const relays = await app.ctx.db.query<{ n: string }>('SELECT count(*) AS n FROM chain_txs WHERE idempotency_key LIKE $1', [`gasless:${burner.address.toLowerCase()}:%`])
    assert.equal(Number(relays.rows[0]!.n), 1, 'the relayer signed one transaction')
    assert.equal(coins - (await burner.coinBalance()), 225_000n * E18, 'burned once')

    // The exact signatures again, one of them past its deadline: the same relay, 200.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, soon + 1 - Date.now() / 1000) * 1000))
    for (const body of bodies) {
      const again = await app.post(`/api/gasless/burn`, body)
      assert.equal(again.status, 200, JSON.stringify(again.body))
      assert.equal(again.body.txHash, responses[0]!.body.txHash)
    }
    // A fifth signature of that nonce, with a deadline never posted, after the relay was mined.
    const late = await app.post(`/api/gasless/burn`, await sign(typed.message.deadline + 3))
    assert.equal(late.status, 200, JSON.stringify(late.body))
    assert.equal(late.body.txHash, responses[0]!.body.txHash)
    assert.equal(coins - (await burner.coinBalance()), 225_000n * E18, 'still burned once')
    // The relay carries both transfers; the burner redeems it.
    const txHash = responses[0]!.body.txHash
    const ok = await looksmaxx({ burnTxHash: txHash, devTxHash: txHash, burnerAddress: burner.address, image, paymentPayload: await burner.signPayment(requirements) })
    assert.equal(ok.status, 200, JSON.stringify(ok.body))
  })
})

describe('registrations need the wallet\'s signature', () => {
  test('early access: a stranger cannot register or overwrite a wallet; the owner can', async () => {
    const before = await app.ctx.db.query('SELECT * FROM early_access WHERE wallet = $1', [victim.address])
    assert.equal(before.rows.length, 0)
    const unsigned = await app.post(`/api/early/register`, { wallet: victim.address, twitter: '@stranger' })
    assert.equal(unsigned.status, 400, JSON.stringify(unsigned.body))
    assert.equal(unsigned.body.error.code, 'INVALID_SIGNATURE')
    const strangers = await attacker.signRegistration('EarlyAccessRegistration', { twitter: '@stranger' })
    const foreign = await app.post(`/api/early/register`, { wallet: victim.address, twitter: '@stranger', ...strangers })
    assert.equal(foreign.status, 400)
    assert.equal(foreign.body.error.code, 'INVALID_SIGNATURE')
    const stale = await app.post(`/api/early/register`, { wallet: victim.address, twitter: '@victim', ...(await victim.signRegistration('EarlyAccessRegistration', { twitter: '@victim' }, Number(nowSeconds()) - 3600)) })
    assert.equal(stale.status, 400)
    assert.equal(stale.body.error.code, 'SIGNATURE_EXPIRED')
    assert.equal((await app.ctx.db.query('SELECT * FROM early_access WHERE wallet = $1', [victim.address])).rows.length, 0, 'nothing stored')

    const signed = await victim.signRegistration('EarlyAccessRegistration', { twitter: '@victim' })
    const ok = await app.post(`/api/early/register`, { wallet: victim.address, twitter: '@victim', ...signed })
    assert.equal(ok.status, 200, JSON.stringify(ok.body))
    assert.match(ok.body.referralCode, /vict$/)
    // The owner's signature, replayed with the stranger's handle: refused; the row is the owner's.
    const replayed = await app.post(`/api/early/register`, { wallet: victim.address, twitter: '@stranger', ...signed })
    assert.equal(replayed.status, 400)
    assert.equal(replayed.body.error.code, 'INVALID_SIGNATURE')
    const row = (await app.ctx.db.query<{ twitter: string; referral_code: string }>('SELECT twitter, referral_code FROM early_access WHERE wallet = $1', [victim.address])).rows[0]!
    assert.equal(row.twitter, '@victim')
    assert.equal(row.referral_code, ok.body.referralCode)
  })

  test('referral agent: a stranger cannot register a wallet or change its endpoint; an older signature never replaces a newer one', async () => {
    const stranger = await app.post(`/api/agent/register`, { wallet: victim.address, mcpEndpoint: 'https://evil.example/mcp' })
    assert.equal(stranger.status, 400, JSON.stringify(stranger.body))
    assert.equal(stranger.body.error.code, 'INVALID_SIGNATURE')
    const forged = await app.post(`/api/agent/register`, {
      wallet: victim.address, mcpEndpoint: 'https://evil.example/mcp', ...(await attacker.signRegistration('ReferralAgentRegistration', { mcpEndpoint: 'https://evil.example/mcp' })),
    })
    assert.equal(forged.status, 400)
    assert.equal(forged.body.error.code, 'INVALID_SIGNATURE')

    const template = (await app.get(`/api/agent/register?address=${victim.address}`)).body.signTypedData
    assert.equal(template.primaryType, 'ReferralAgentRegistration')
    const older = { mcpEndpoint: 'https://victim.example/old', description: 'old' }
    const olderSigned = await victim.signRegistration('ReferralAgentRegistration', older, Number(nowSeconds()) - 60)
    const newer = { mcpEndpoint: 'https://victim.example/mcp', description: 'the victim agent' }
    const ok = await app.post(`/api/agent/register`, { wallet: victim.address, ...newer, ...(await victim.signRegistration('ReferralAgentRegistration', newer)) })
    assert.equal(ok.status, 200, JSON.stringify(ok.body))
    // The older signed write, replayed later (as a stranger who saw it could): nothing changes.
    const replay = await app.post(`/api/agent/register`, { wallet: victim.address, ...older, ...olderSigned })
    assert.equal(replay.status, 200)
    const tamper = await app.post(`/api/agent/register`, { wallet: victim.address, ...older, description: 'pwned', ...olderSigned })
    assert.equal(tamper.status, 400)
    assert.equal(tamper.body.error.code, 'INVALID_SIGNATURE')
    const row = (await app.ctx.db.query<{ mcp_endpoint: string; description: string }>('SELECT mcp_endpoint, description FROM referral_codes WHERE agent = $1', [victim.address])).rows[0]!
    assert.deepEqual({ ...row }, { mcp_endpoint: newer.mcpEndpoint, description: newer.description })
  })
})
