import { z } from 'zod'
import { paymentRequirementsV2Schema, toRequirementsV2, transferMethodOf, type PaymentRequirements } from './requirements.ts'
import { EIP2612_GAS_SPONSORING } from './payload.ts'
import { PAYMENT_IDENTIFIER, declarePaymentIdentifier } from './payment-identifier.ts'

/** The x402 v2 PaymentRequired: the PAYMENT-REQUIRED header of a 402, and MCP's payment-required tool result. */
export const paymentRequiredV2Schema = z.object({
  x402Version: z.literal(2),
  error: z.string().optional(),
  resource: z.object({ url: z.string(), description: z.string(), mimeType: z.string() }),
  accepts: z.array(paymentRequirementsV2Schema),
  extensions: z.record(z.string(), z.unknown()),
})
export type PaymentRequiredV2 = z.infer<typeof paymentRequiredV2Schema>

/**
 * The v2 form of our payment options, declaring the payment-identifier extension and, when
 * Permit2 is offered, EIP-2612 gas sponsoring: a payer whose Permit2 allowance is short may
 * send its USDm permit of Permit2 with the payment instead of an approval transaction.
 */
export function buildPaymentRequiredV2(offers: PaymentRequirements[], error?: string): PaymentRequiredV2 {
  const first = offers[0]!
  const permit2 = offers.some((offer) => transferMethodOf(offer) === 'permit2')
  return {
    x402Version: 2,
    ...(error ? { error } : {}),
    resource: { url: first.resource, description: first.description, mimeType: first.mimeType },
    accepts: offers.map(toRequirementsV2),
    extensions: { [PAYMENT_IDENTIFIER]: declarePaymentIdentifier(), ...(permit2 ? { [EIP2612_GAS_SPONSORING]: declareEip2612GasSponsoring() } : {}) },
  }
}

/** The eip2612GasSponsoring declaration of a 402, as the x402 extension specifies it. */
export function declareEip2612GasSponsoring() {
  const address = { type: 'string', pattern: '^0x[a-fA-F0-9]{40}$' }
  const integer = { type: 'string', pattern: '^[0-9]+$' }
  return {
    info: { description: 'The facilitator accepts an EIP-2612 permit of the canonical Permit2 contract with the payment.', version: '1' },
    schema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        from: address,
        asset: address,
        spender: address,
        amount: integer,
        nonce: integer,
        deadline: integer,
        signature: { type: 'string', pattern: '^0x[a-fA-F0-9]+$' },
        version: { type: 'string', pattern: '^[0-9]+(\\.[0-9]+)*$' },
      },
      required: ['from', 'asset', 'spender', 'amount', 'nonce', 'deadline', 'signature', 'version'],
    },
  }
}

/** Standard base64 of the JSON, as x402 encodes PAYMENT-REQUIRED, PAYMENT-RESPONSE and PAYMENT-SIGNATURE. */
export function encodeX402Header(value: unknown): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64')
}

/** The inverse of encodeX402Header, for a header this service wrote (MCP reads them back). */
export function decodeX402Header(header: string): unknown {
  return JSON.parse(Buffer.from(header, 'base64').toString('utf8'))
}
