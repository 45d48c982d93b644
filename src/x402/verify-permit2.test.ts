import { test } from 'node:test'
import assert from 'node:assert/strict'
import { privateKeyToAccount, generatePrivateKey } from 'viem/accounts'
import { decodeFunctionData, getAddress } from 'viem'
import { x402ExactPermit2ProxyAbi } from '../chain/abis/permit2.ts'
import { ExactEvmScheme } from '@x402/evm/exact/client'
import { verifyExactPayment } from './verify-payment.ts'
import { buildPermit2Requirements, buildPaymentRequirements, toRequirementsV2 } from './requirements.ts'
import { completePayload, paymentTerms, type Permit2Payment } from './payload.ts'
import { buildPermit2SettlementCall } from './permit2-settlement-call.ts'

const usdm = getAddress('0xFAfDdbb3FC7688494971a79cc65DCa3EF82079E7')
const payTo = getAddress('0x8E7769D440b3460b92159Dd9C6D17302b036e2d6')
const requirements = buildPermit2Requirements({ resource: 'http://127.0.0.1:3000/api/x402/looksmaxx', payTo, usdm })
const payer = privateKeyToAccount(generatePrivateKey())
const okState = { nonceUsed: false, balance: 10n ** 21n, allowance: 10n ** 30n }
const nowSeconds = () => BigInt(Math.floor(Date.now() / 1000))

/** A Permit2 payment exactly as the official x402 client signs it for our Permit2 option. */
async function signed(offer = toRequirementsV2(requirements), signer = payer): Promise<Permit2Payment> {
  const created = await new ExactEvmScheme(signer).createPaymentPayload(2, offer)
  return completePayload({ x402Version: 1, scheme: 'exact', network: 'megaeth', payload: created.payload as never }) as Permit2Payment
}

function tampered(payment: Permit2Payment, change: (auth: Permit2Payment['payload']['permit2Authorization']) => void): Permit2Payment {
  const copy = structuredClone(payment)
  change(copy.payload.permit2Authorization)
  return copy
}

test('a Permit2 payment of the official x402 client verifies, and its terms are what it signed', async () => {
  const payment = await signed()
  assert.deepEqual(await verifyExactPayment(payment, requirements, nowSeconds(), okState), { isValid: true, payer: payer.address })
  const terms = paymentTerms(payment)
  assert.equal(terms.method, 'permit2')
  assert.equal(terms.to, payTo)
  assert.equal(terms.value, 10n ** 18n)
  assert.equal(BigInt(terms.nonce), BigInt(payment.payload.permit2Authorization.nonce))
  assert.match(terms.nonce, /^0x[0-9a-f]{64}$/)
  // The settlement names the proxy's settle, without a permit.
  const call = decodeFunctionData({ abi: x402ExactPermit2ProxyAbi, data: buildPermit2SettlementCall(payment) })
  assert.equal(call.functionName, 'settle')
  assert.equal((call.args[1] as string).toLowerCase(), payer.address.toLowerCase(), 'the owner is the payer')
})

test('each broken condition gives the x402 facilitator reason', async () => {
  const payment = await signed()
  const now = nowSeconds()
  const other = privateKeyToAccount(generatePrivateKey())
  const cases: [string, Permit2Payment | Promise<Permit2Payment>, string, typeof okState?][] = [
    ['spender is not the exact proxy', tampered(payment, (a) => (a.spender = payTo)), 'invalid_permit2_spender'],
    ['payee is not payTo', tampered(payment, (a) => (a.witness.to = other.address)), 'invalid_permit2_recipient_mismatch'],
    ['deadline passed', tampered(payment, (a) => (a.deadline = String(now + 2n))), 'permit2_deadline_expired'],
    ['deadline beyond maxTimeoutSeconds', tampered(payment, (a) => (a.deadline = String(now + 3600n))), 'permit2_deadline_too_far'],
    ['not valid yet', tampered(payment, (a) => (a.witness.validAfter = String(now + 60n))), 'permit2_not_yet_valid'],
    ['another amount', tampered(payment, (a) => (a.permitted.amount = '1')), 'permit2_amount_mismatch'],
    ['another token', tampered(payment, (a) => (a.permitted.token = payTo)), 'permit2_token_mismatch'],
    ['nonce changed after signing', tampered(payment, (a) => (a.nonce = '7')), 'invalid_permit2_signature'],
    ['signed by someone else', signed(undefined, other).then((p) => tampered(p, (a) => (a.from = payer.address))), 'invalid_permit2_signature'],
    ['nonce spent', payment, 'permit2_invalid_nonce', { ...okState, nonceUsed: true }],
    ['balance short', payment, 'permit2_insufficient_balance', { ...okState, balance: 10n ** 18n - 1n }],
    ['Permit2 not approved', payment, 'permit2_allowance_required', { ...okState, allowance: 0n }],
  ]
  for (const [name, candidate, reason, state] of cases) {
    const result = await verifyExactPayment(await candidate, requirements, now, state ?? okState)
    assert.deepEqual(result, { isValid: false, invalidReason: reason, payer: payer.address }, name)
  }
})

test('an EIP-2612 permit of Permit2 stands in for the approval, if it is for Permit2, this payer, asset and amount', async () => {
  const payment = await signed()
  const now = nowSeconds()
  const info = { from: payer.address, asset: usdm, spender: '0x000000000022D473030F116dDEE9F6B43aC78BA3', amount: '1000000000000000000', nonce: '0', deadline: String(now + 300n), signature: `0x${'11'.repeat(64)}1b`, version: '1' }
  const withPermit = (changes: Partial<typeof info>) => ({ ...payment, extensions: { eip2612GasSponsoring: { info: { ...info, ...changes } } } })
  const noAllowance = { ...okState, allowance: 0n }
  assert.deepEqual(await verifyExactPayment(withPermit({}), requirements, now, noAllowance), { isValid: true, payer: payer.address })
  assert.equal(decodeFunctionData({ abi: x402ExactPermit2ProxyAbi, data: buildPermit2SettlementCall(withPermit({})) }).functionName, 'settleWithPermit')
  for (const [changes, reason] of [
    [{ from: payTo }, 'eip2612_from_mismatch'],
    [{ asset: payTo }, 'eip2612_asset_mismatch'],
    [{ spender: payTo }, 'eip2612_spender_not_permit2'],
    [{ deadline: String(now) }, 'eip2612_deadline_expired'],
    [{ amount: '5' }, 'permit2_2612_amount_mismatch'],
    [{ signature: `0x${'11'.repeat(64)}` }, 'invalid_eip2612_extension_format'],
  ] as const) {
    assert.equal(((await verifyExactPayment(withPermit(changes), requirements, now, noAllowance)) as { invalidReason: string }).invalidReason, reason)
  }
})

test('an EIP-3009 authorization cannot pay the Permit2 option, nor a Permit2 one the forwarder option', async () => {
  const forwarderOption = buildPaymentRequirements({ resource: requirements.resource, payTo, forwarder: getAddress('0x2c2d8EF0664432BA243deF0b8f60aF7aB43a60B4') })
  const permit2 = await signed()
  assert.equal(((await verifyExactPayment(permit2, forwarderOption, nowSeconds(), okState)) as { invalidReason: string }).invalidReason, 'unsupported_payload_type')
  const eip3009 = completePayload({ x402Version: 1, payload: { signature: `0x${'11'.repeat(65)}`, authorization: { from: payer.address, to: payTo, value: '1', validAfter: '0', validBefore: '1', nonce: `0x${'00'.repeat(32)}` } } })
  assert.equal(((await verifyExactPayment(eip3009, requirements, nowSeconds(), okState)) as { invalidReason: string }).invalidReason, 'unsupported_payload_type')
})
