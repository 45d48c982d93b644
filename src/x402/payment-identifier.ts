import { createHash } from 'node:crypto'
import { z } from 'zod'
import { invalidPayment } from './payload.ts'

/**
 * The x402 v2 `payment-identifier` extension (specs/extensions/payment_identifier.md): the
 * client names its payment with an id; the same id with the same payload gets the first
 * result, with another payload a 409.
 */
export const PAYMENT_IDENTIFIER = 'payment-identifier'

/** The id's rules, as the extension's JSON Schema states them. */
const paymentIdSchema = z
  .string()
  .min(16)
  .max(128)
  .regex(/^[a-zA-Z0-9_-]+$/)

/** What a 402 declares under `extensions["payment-identifier"]`: optional, with the id's schema. */
export function declarePaymentIdentifier() {
  return {
    info: { required: false },
    schema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        required: { type: 'boolean' },
        id: { type: 'string', minLength: 16, maxLength: 128, pattern: '^[a-zA-Z0-9_-]+$' },
      },
      required: ['required'],
    },
  }
}

/**
 * The id of a v2 payload's `extensions`, or undefined when the client sent none. A present
 * but malformed id is a malformed payment (400), as the extension's validation says.
 */
export function readPaymentIdentifier(extensions: Record<string, unknown> | undefined): string | undefined {
  const info = (extensions?.[PAYMENT_IDENTIFIER] as { info?: { id?: unknown } } | undefined)?.info
  if (info?.id === undefined) return undefined
  const parsed = paymentIdSchema.safeParse(info.id)
  if (!parsed.success) {
    throw invalidPayment('The payment-identifier id must be 16 to 128 characters of letters, digits, hyphens and underscores.')
  }
  return parsed.data
}

/** What "the same payload" means: the payment payload and the request it pays for, hashed. */
export function fingerprintOf(payment: unknown, request: unknown): string {
  return createHash('sha256').update(JSON.stringify({ payment, request })).digest('hex')
}
