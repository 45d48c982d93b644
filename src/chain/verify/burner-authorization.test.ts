import { test } from 'node:test'
import assert from 'node:assert/strict'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { zeroAddress } from 'viem'
import { imageHashOf, redeemBurnDomain, redeemBurnTypes, verifyBurnerProof } from './burner-authorization.ts'

const nft = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const burner = privateKeyToAccount(generatePrivateKey())
const stranger = privateKeyToAccount(generatePrivateKey())
const now = 1_800_000_000
const base = {
  burner: burner.address,
  burnTxHash: `0x${'11'.repeat(32)}` as const,
  devTxHash: `0x${'22'.repeat(32)}` as const,
  imageHash: imageHashOf(new Uint8Array([1, 2, 3])),
}
const sign = (signer = burner, overrides: Partial<{ payer: `0x${string}`; imageHash: `0x${string}`; deadline: bigint }> = {}) =>
  signer.signTypedData({
    domain: redeemBurnDomain(nft),
    types: redeemBurnTypes,
    primaryType: 'RedeemBurn',
    message: { ...base, payer: zeroAddress, deadline: BigInt(now + 600), ...overrides },
  })

test('a payment signed by the burner is proof enough; any other payer needs the burner\'s signature', async () => {
  assert.deepEqual(await verifyBurnerProof({ nft, message: { ...base, payer: burner.address }, nowSeconds: now }), { ok: true, by: 'payment' })
  const foreign = await verifyBurnerProof({ nft, message: { ...base, payer: stranger.address }, nowSeconds: now })
  assert.equal(foreign.ok, false)
  assert.equal((foreign as { code: string }).code, 'INVALID_SIGNATURE')
  const signature = await sign(burner, { payer: stranger.address })
  assert.deepEqual(await verifyBurnerProof({ nft, message: { ...base, payer: stranger.address }, signature, deadline: now + 600, nowSeconds: now }), { ok: true, by: 'signature' })
})

test('without a payment the burner\'s signature is required, bound to the image, the payer and the deadline', async () => {
  const check = (signature: `0x${string}` | undefined, message = {}, deadline = now + 600, nowSeconds = now) =>
    verifyBurnerProof({ nft, message: { ...base, ...message }, signature, deadline, nowSeconds })
  assert.deepEqual(await check(await sign()), { ok: true, by: 'signature' })
  const cases: Array<[string, ReturnType<typeof check>, string]> = [
    ['missing', check(undefined), 'INVALID_SIGNATURE'],
    ['by a stranger', check(await sign(stranger)), 'INVALID_SIGNATURE'],
    ['another image', check(await sign(), { imageHash: imageHashOf(new Uint8Array([9])) }), 'INVALID_SIGNATURE'],
    ['used with a payer it did not name', check(await sign(), { payer: stranger.address }), 'INVALID_SIGNATURE'],
    ['another deadline than signed', check(await sign(), {}, now + 601), 'INVALID_SIGNATURE'],
    ['past its deadline', check(await sign(), {}, now + 600, now + 600), 'SIGNATURE_EXPIRED'],
    ['garbage', check(`0x${'00'.repeat(65)}`), 'INVALID_SIGNATURE'],
  ]
  for (const [name, verdict, code] of cases) {
    const result = await verdict
    assert.equal(result.ok, false, name)
    assert.equal((result as { code: string }).code, code, name)
  }
})
