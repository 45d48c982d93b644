import type { HeaderDoc } from '../define.ts'
import { jsonSchemaOf } from '../json-schema.ts'
import { paymentPayloadSchema } from '../../x402/payload.ts'
import { paymentPayloadV2Schema } from '../../x402/payload-v2.ts'
import { paymentRequiredV2Schema } from '../../x402/payment-required-v2.ts'
import { PAYMENT_IDENTIFIER } from '../../x402/payment-identifier.ts'
import { X402_NETWORK_V2 } from '../../x402/requirements.ts'
import { X402_NETWORK } from '../../chain/constants.ts'

/**
 * The x402 headers of the looksmaxx operations, as the OpenAPI document describes them: exactly
 * the ones the handlers read (readPayment) and write (paymentRequired, paidAnswer). Each value
 * is standard base64 of a JSON document, described with contentEncoding / contentSchema.
 */
function base64Json(schema: Record<string, unknown>): Record<string, unknown> {
  return { type: 'string', contentEncoding: 'base64', contentMediaType: 'application/json', contentSchema: schema }
}

/** The payment-identifier extension as a client sends it in a v2 payload's `extensions`. */
const paymentIdentifierExtension = {
  type: 'object',
  description: 'x402 v2 payment-identifier extension (idempotency): the same id with the same payload replays the first result; with another payload 409 PAYMENT_ID_CONFLICT.',
  properties: {
    info: {
      type: 'object',
      properties: {
        required: { type: 'boolean' },
        id: { type: 'string', minLength: 16, maxLength: 128, pattern: '^[a-zA-Z0-9_-]+$' },
      },
    },
  },
}

function paymentPayloadV2WithExtension(): Record<string, unknown> {
  const schema = jsonSchemaOf(paymentPayloadV2Schema, 'input')
  const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>
  return {
    ...schema,
    properties: {
      ...properties,
      extensions: { type: 'object', properties: { [PAYMENT_IDENTIFIER]: paymentIdentifierExtension }, additionalProperties: {} },
    },
  }
}

const settlementResponse = {
  type: 'object',
  properties: {
    success: { type: 'boolean' },
    errorReason: { type: 'string' },
    transaction: { type: 'string', description: 'Settlement transaction hash' },
    network: { type: 'string' },
    payer: { type: 'string', description: 'Address that signed the payment' },
    extensions: {
      type: 'object',
      description: 'x402 extensions of the settlement: "offer-receipt".info.receipt is the receipt signed by the receipt key (EIP-712, the same as receipts.x402 of the body)',
    },
  },
  required: ['success', 'transaction', 'network', 'payer'],
}

/** Request headers of POST /api/x402/looksmaxx (alternatives to the body's paymentPayload). */
export function looksmaxxPaymentRequestHeaders(): HeaderDoc[] {
  return [
    {
      name: 'PAYMENT-SIGNATURE',
      description: `x402 v2: base64 of the JSON PaymentPayload (x402Version 2, accepted = accepts[0] of PAYMENT-REQUIRED, network ${X402_NETWORK_V2}, payload {signature, authorization}), optionally with extensions["${PAYMENT_IDENTIFIER}"].info.id. Read before X-PAYMENT; paymentPayload in the body wins over both.`,
      schema: base64Json(paymentPayloadV2WithExtension()),
    },
    {
      name: 'X-PAYMENT',
      description: `x402 v1: base64 of the JSON PaymentPayload (x402Version 1, scheme exact, network ${X402_NETWORK}), the same as the body field paymentPayload (a v2 payload here is read as v2).`,
      schema: base64Json(jsonSchemaOf(paymentPayloadSchema, 'input')),
    },
  ]
}

/** Headers of every 402 of the looksmaxx endpoints: the spec's v1 pair and the x402 v2 offer. */
export function paymentRequiredHeaders(): HeaderDoc[] {
  return [
    {
      name: 'PAYMENT-REQUIRED',
      required: true,
      description: `x402 v2: base64 of the JSON PaymentRequired (x402Version 2, resource, accepts with network ${X402_NETWORK_V2} and amount; extensions "offer-receipt" (the offer signed by the receipt key), "bazaar" (how to call the route) and "${PAYMENT_IDENTIFIER}"). The body carries the same offer in x402 v1 form.`,
      schema: base64Json(jsonSchemaOf(paymentRequiredV2Schema, 'output')),
    },
    { name: 'X-Payment-Required', required: true, description: 'Always "true" (the spec\'s header).', schema: { type: 'string', const: 'true' } },
    { name: 'X-402-Version', required: true, description: 'Always "1": the x402 version of the body.', schema: { type: 'string', const: '1' } },
  ]
}

/** Headers of the paid 200: the settlement, in the header of the x402 version the client paid with. */
export function paymentResponseHeaders(): HeaderDoc[] {
  return [
    {
      name: 'PAYMENT-RESPONSE',
      description: 'x402 v2, sent when the payment was a v2 payload (PAYMENT-SIGNATURE, or x402Version 2 in X-PAYMENT): base64 of the JSON SettlementResponse.',
      schema: base64Json({ ...settlementResponse, properties: { ...settlementResponse.properties, network: { const: X402_NETWORK_V2 } } }),
    },
    {
      name: 'X-PAYMENT-RESPONSE',
      description: 'x402 v1, sent when the payment was a v1 payload (X-PAYMENT or paymentPayload): base64 of the JSON SettlementResponse.',
      schema: base64Json({ ...settlementResponse, properties: { ...settlementResponse.properties, network: { const: X402_NETWORK } } }),
    },
  ]
}
