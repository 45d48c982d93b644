import { z } from 'zod'
import { paymentRequirementsV2Schema, toRequirementsV2, type PaymentRequirements } from './requirements.ts'
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

/** The v2 form of our one payment option, declaring the payment-identifier extension. */
export function buildPaymentRequiredV2(requirements: PaymentRequirements, error?: string): PaymentRequiredV2 {
  return {
    x402Version: 2,
    ...(error ? { error } : {}),
    resource: { url: requirements.resource, description: requirements.description, mimeType: requirements.mimeType },
    accepts: [toRequirementsV2(requirements)],
    extensions: { [PAYMENT_IDENTIFIER]: declarePaymentIdentifier() },
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
