import { test } from 'node:test'
import assert from 'node:assert/strict'
import { getAddress } from 'viem'
import { acceptedMismatch, parseAnyPaymentPayload, readPayment } from './payload-v2.ts'
import { buildPaymentRequirements, toRequirementsV2 } from './requirements.ts'
import { readPaymentIdentifier, fingerprintOf } from './payment-identifier.ts'
import { buildPaymentRequiredV2, encodeX402Header } from './payment-required-v2.ts'

const forwarder = getAddress('0x2c2d8EF0664432BA243deF0b8f60aF7aB43a60B4')
const payTo = getAddress('0x8E7769D440b3460b92159Dd9C6D17302b036e2d6')
const requirements = buildPaymentRequirements({ resource: 'http://127.0.0.1:3000/api/x402/looksmaxx', payTo, forwarder })
const authorization = {
  from: '0x1111111111111111111111111111111111111111',
  to: payTo,
  value: '1000000000000000000',
  validAfter: '0',
  validBefore: '1800000300',
  nonce: `0x${'ab'.repeat(32)}`,
}
const signature = `0x${'11'.repeat(65)}`

/** A v2 payload as @x402/core builds it: resource and accepted copied from the 402. */
function v2Payload(overrides: Record<string, unknown> = {}) {
  const required = buildPaymentRequiredV2([requirements])
  return { x402Version: 2, resource: required.resource, accepted: required.accepts[0], payload: { signature, authorization }, extensions: required.extensions, ...overrides }
}

test('a v2 payload unwraps to the same exact payload a v1 client sends', () => {
  const received = parseAnyPaymentPayload(v2Payload())
  assert.equal(received.version, 2)
  assert.deepEqual(received.payment, { x402Version: 1, scheme: 'exact', network: 'megaeth', payload: { signature, authorization } })
  const v1 = parseAnyPaymentPayload({ x402Version: 1, scheme: 'exact', network: 'megaeth', payload: { signature, authorization } })
  assert.deepEqual(v1.payment, received.payment)
})

test('the payment is read from the body, PAYMENT-SIGNATURE or X-PAYMENT, by its x402Version', () => {
  assert.equal(readPayment(undefined, {}), undefined)
  assert.equal(readPayment(undefined, { 'payment-signature': encodeX402Header(v2Payload()) })?.version, 2)
  assert.equal(readPayment(undefined, { 'x-payment': encodeX402Header({ x402Version: 1, payload: { signature, authorization } }) })?.version, 1)
  assert.throws(() => readPayment(undefined, { 'payment-signature': '%%%' }), { code: 'INVALID_PAYMENT', message: /PAYMENT-SIGNATURE header is not base64/ })
  assert.throws(() => parseAnyPaymentPayload(v2Payload({ accepted: undefined })), { code: 'INVALID_PAYMENT', message: /accepted/ })
})

test('another network stays as sent, so verification refuses it', () => {
  const received = parseAnyPaymentPayload(v2Payload({ accepted: { ...toRequirementsV2(requirements), network: 'eip155:8453' } }))
  assert.equal(received.payment.network, 'eip155:8453')
})

test('accepted must be our offer, field by field', () => {
  const offer = toRequirementsV2(requirements)
  assert.equal(acceptedMismatch({ ...offer, payTo: offer.payTo.toLowerCase() }, offer), undefined)
  assert.equal(acceptedMismatch({ ...offer, scheme: 'upto' }, offer), 'scheme')
  assert.equal(acceptedMismatch({ ...offer, network: 'megaeth' }, offer), 'network')
  assert.equal(acceptedMismatch({ ...offer, amount: '1' }, offer), 'amount')
  assert.equal(acceptedMismatch({ ...offer, asset: payTo }, offer), 'asset')
  assert.equal(acceptedMismatch({ ...offer, payTo: forwarder }, offer), 'payTo')
})

test('payment identifier: absent, valid, malformed', () => {
  assert.equal(readPaymentIdentifier(undefined), undefined)
  assert.equal(readPaymentIdentifier({ 'payment-identifier': { info: { required: false } } }), undefined)
  assert.equal(readPaymentIdentifier({ 'payment-identifier': { info: { required: false, id: 'pay_7d5d747be160e280' } } }), 'pay_7d5d747be160e280')
  assert.throws(() => readPaymentIdentifier({ 'payment-identifier': { info: { id: 'short' } } }), { code: 'INVALID_PAYMENT' })
  assert.throws(() => readPaymentIdentifier({ 'payment-identifier': { info: { id: 'pay_with spaces and !' } } }), { code: 'INVALID_PAYMENT' })
})

test('the fingerprint changes with the payment or the request, not with nothing', () => {
  const a = fingerprintOf(v2Payload(), { burnTxHash: '0x01' })
  assert.equal(fingerprintOf(v2Payload(), { burnTxHash: '0x01' }), a)
  assert.notEqual(fingerprintOf(v2Payload({ payload: { signature: `0x${'22'.repeat(65)}`, authorization } }), { burnTxHash: '0x01' }), a)
  assert.notEqual(fingerprintOf(v2Payload(), { burnTxHash: '0x02' }), a)
})
