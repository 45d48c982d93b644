import { z } from 'zod'
import { AppError } from '../errors/app-error.ts'

const hex = (bytes: number) => z.string().regex(new RegExp(`^0x[0-9a-fA-F]{${bytes * 2}}$`))
const uintString = z.union([z.string().regex(/^\d+$/), z.number().int().nonnegative().transform(String)])

export const authorizationSchema = z.object({
  from: hex(20),
  to: hex(20),
  value: uintString,
  validAfter: uintString,
  validBefore: uintString,
  nonce: hex(32),
})

/** The x402 v1 `exact` EVM payment payload (body field paymentPayload, or X-PAYMENT header). */
export const paymentPayloadSchema = z.object({
  x402Version: z.number().int().optional(),
  scheme: z.string().optional(),
  network: z.string().optional(),
  payload: z.object({
    signature: z.string().regex(/^0x[0-9a-fA-F]+$/, { error: 'must be a 0x-prefixed hex signature' }),
    authorization: authorizationSchema.optional(),
  }),
})
export type PaymentPayload = z.infer<typeof paymentPayloadSchema>

/** A payload complete enough to verify: the spec lets `authorization` be omitted, x402 needs it. */
export type CompletePaymentPayload = PaymentPayload & {
  payload: { signature: `0x${string}`; authorization: z.infer<typeof authorizationSchema> }
}

export function invalidPayment(message: string, cause?: unknown): AppError {
  return new AppError('INVALID_PAYMENT', message, { cause })
}

/** Decodes a payment header (X-PAYMENT, PAYMENT-SIGNATURE): standard base64 of the JSON payload. */
export function decodePaymentHeader(header: string, name = 'X-PAYMENT'): unknown {
  try {
    return JSON.parse(Buffer.from(header, 'base64').toString('utf8'))
  } catch (cause) {
    throw invalidPayment(`The ${name} header is not base64-encoded JSON.`, cause)
  }
}

export function parsePaymentPayload(value: unknown): CompletePaymentPayload {
  const parsed = paymentPayloadSchema.safeParse(value)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    throw invalidPayment(`Invalid payment payload at ${issue.path.join('.') || 'root'}: ${issue.message}.`)
  }
  if (!parsed.data.payload.authorization) {
    throw invalidPayment('The payment payload has no payload.authorization: an x402 exact payment needs it to settle.')
  }
  return parsed.data as CompletePaymentPayload
}

/** The X-PAYMENT-RESPONSE (v1) or PAYMENT-RESPONSE (v2) header value: base64 of the settlement response JSON. */
export function encodePaymentResponse(response: { success: boolean; transaction: string; network: string; payer: string; errorReason?: string }): string {
  return Buffer.from(JSON.stringify(response)).toString('base64')
}
