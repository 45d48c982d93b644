import { test } from 'node:test'
import assert from 'node:assert/strict'
import { privateKeyToAccount, generatePrivateKey } from 'viem/accounts'
import { getAddress } from 'viem'
import { verifyExactPayment } from './verify-payment.ts'
import { buildPaymentRequirements, forwarderDomain } from './requirements.ts'
import { transferWithAuthorizationTypes } from '../chain/abis/eip3009.ts'
import type { CompletePaymentPayload, Eip3009Payment } from './payload.ts'

const forwarder = getAddress('0x2c2d8EF0664432BA243deF0b8f60aF7aB43a60B4')
const payTo = getAddress('0x8E7769D440b3460b92159Dd9C6D17302b036e2d6')
const requirements = buildPaymentRequirements({ resource: 'http://127.0.0.1:3000/api/x402/looksmaxx', payTo, forwarder })
const payer = privateKeyToAccount(generatePrivateKey())
const now = 1_800_000_000n

async function sign(overrides: Partial<Record<'to' | 'value' | 'validAfter' | 'validBefore', string>> = {}, signer = payer) {
  const authorization = {
    from: payer.address,
    to: payTo,
    value: '1000000000000000000',
    validAfter: String(now - 600n),
    validBefore: String(now + 300n),
    nonce: `0x${'ab'.repeat(32)}` as `0x${string}`,
    ...overrides,
  }
  const signature = await signer.signTypedData({
    domain: forwarderDomain(forwarder),
    types: transferWithAuthorizationTypes,
    primaryType: 'TransferWithAuthorization',
    message: {
      from: authorization.from,
      to: authorization.to as `0x${string}`,
      value: BigInt(authorization.value),
      validAfter: BigInt(authorization.validAfter),
      validBefore: BigInt(authorization.validBefore),
      nonce: authorization.nonce,
    },
  })
  return { x402Version: 1, scheme: 'exact', network: 'megaeth', payload: { signature, authorization } } as CompletePaymentPayload
}

const okState = { nonceUsed: false, balance: 10n ** 21n, allowance: 10n ** 30n }

test('a correct authorization verifies', async () => {
  assert.deepEqual(await verifyExactPayment(await sign(), requirements, now, okState), { isValid: true, payer: payer.address })
})

test('each broken rule gives its x402 reason', async () => {
  const other = privateKeyToAccount(generatePrivateKey())
  const cases: Array<[string, Promise<CompletePaymentPayload>, string, typeof okState?]> = [
    ['signed by someone else', sign({}, other), 'invalid_exact_evm_payload_signature'],
    ['to another recipient', sign({ to: other.address }), 'invalid_exact_evm_payload_recipient_mismatch'],
    ['expired', sign({ validBefore: String(now + 3n) }), 'invalid_exact_evm_payload_authorization_valid_before'],
    ['valid for longer than maxTimeoutSeconds', sign({ validBefore: String(now + 3600n) }), 'invalid_exact_evm_payload_authorization_valid_before'],
    ['not yet valid', sign({ validAfter: String(now + 60n) }), 'invalid_exact_evm_payload_authorization_valid_after'],
    // The forwarder requires block.timestamp > validAfter: valid from this very second is refused too (issue 9).
    ['valid only from now', sign({ validAfter: String(now) }), 'invalid_exact_evm_payload_authorization_valid_after'],
    ['too little', sign({ value: '999999999999999999' }), 'invalid_exact_evm_payload_authorization_value'],
    ['too much', sign({ value: '1000000000000000001' }), 'invalid_exact_evm_payload_authorization_value'],
    ['nonce used', sign(), 'invalid_exact_evm_nonce_already_used', { ...okState, nonceUsed: true }],
    ['poor', sign(), 'insufficient_funds', { ...okState, balance: 1n }],
    ['no allowance', sign(), 'insufficient_allowance', { ...okState, allowance: 0n }],
  ]
  for (const [name, payment, reason, state] of cases) {
    const result = await verifyExactPayment(await payment, requirements, now, state ?? okState)
    assert.equal(result.isValid, false, name)
    assert.equal((result as { invalidReason: string }).invalidReason, reason, name)
  }
})

test('a tampered amount breaks the signature', async () => {
  const payment = await sign()
  ;(payment as Eip3009Payment).payload.authorization.value = '2000000000000000000'
  const result = await verifyExactPayment(payment, { ...requirements, maxAmountRequired: '2000000000000000000' }, now, okState)
  assert.equal((result as { invalidReason: string }).invalidReason, 'invalid_exact_evm_payload_signature')
})

test('another network or scheme is refused', async () => {
  const payment = await sign()
  assert.equal(((await verifyExactPayment({ ...payment, network: 'base' }, requirements, now)) as any).invalidReason, 'invalid_network')
  assert.equal(((await verifyExactPayment({ ...payment, scheme: 'upto' }, requirements, now)) as any).invalidReason, 'invalid_scheme')
})
