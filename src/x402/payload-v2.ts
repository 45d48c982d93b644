import { z } from 'zod'
import { isAddressEqual } from 'viem'
import { X402_NETWORK } from '../chain/constants.ts'
import { authorizationSchema, completePayload, invalidPayment, paymentPayloadSchema, parsePaymentPayload, permit2AuthorizationSchema, decodePaymentHeader, type CompletePaymentPayload } from './payload.ts'
import { X402_NETWORK_V2, toRequirementsV2, type PaymentRequirements, type PaymentRequirementsV2 } from './requirements.ts'

/** The x402 v2 PaymentPayload (PAYMENT-SIGNATURE header, MCP `_meta["x402/payment"]`), scheme exact. */
export const paymentPayloadV2Schema = z.object({
  x402Version: z.literal(2),
  resource: z.object({ url: z.string() }).passthrough().optional(),
  accepted: z
    .object({
      scheme: z.string(),
      network: z.string(),
      amount: z.string(),
      asset: z.string(),
      payTo: z.string(),
      maxTimeoutSeconds: z.number().int().optional(),
      extra: z.record(z.string(), z.unknown()).optional(),
    })
    .passthrough(),
  payload: z.object({
    signature: z.string().regex(/^0x[0-9a-fA-F]+$/, { error: 'must be a 0x-prefixed hex signature' }),
    authorization: authorizationSchema.optional().describe('EIP-3009 TransferWithAuthorization (the forwarder option)'),
    permit2Authorization: permit2AuthorizationSchema.optional().describe('Permit2 PermitWitnessTransferFrom (the Permit2 option)'),
  }),
  extensions: z.record(z.string(), z.unknown()).optional(),
})
export type PaymentPayloadV2 = z.infer<typeof paymentPayloadV2Schema>

/**
 * A payment as received: `payment` is the one internal form (the v1 exact payload, which the
 * pipeline verifies, stores and settles), `v2` the envelope when the client spoke v2. The
 * signed authorization (EIP-3009 or Permit2) is the same in both versions, so (from, nonce)
 * stays the key that lets an authorization pay once, whichever version carried it.
 */
export type ReceivedPayment = { version: 1; payment: CompletePaymentPayload } | { version: 2; payment: CompletePaymentPayload; v2: PaymentPayloadV2 }

/** Parses a decoded payload of either version, told apart by `x402Version` (v1 when absent). */
export function parseAnyPaymentPayload(value: unknown): ReceivedPayment {
  if ((value as { x402Version?: unknown } | null)?.x402Version !== 2) return { version: 1, payment: parsePaymentPayload(value) }
  const parsed = paymentPayloadV2Schema.safeParse(value)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    throw invalidPayment(`Invalid x402 v2 payment payload at ${issue.path.join('.') || 'root'}: ${issue.message}.`)
  }
  const v2 = parsed.data
  const payment: CompletePaymentPayload = completePayload(
    {
      x402Version: 1,
      scheme: v2.accepted.scheme,
      // The CAIP-2 name of our chain is the v1 `megaeth`; any other network stays as sent and
      // fails verification with invalid_network.
      network: v2.accepted.network === X402_NETWORK_V2 ? X402_NETWORK : v2.accepted.network,
      payload: v2.payload,
    },
    v2.extensions,
  )
  return { version: 2, payment, v2 }
}

/**
 * The payment of a request, from wherever its transport carries it: the body field
 * `paymentPayload` (the spec's), the v2 `PAYMENT-SIGNATURE` header or the v1 `X-PAYMENT`
 * header (MCP's `_meta["x402/payment"]` arrives as the former). Undefined: no payment at all.
 */
export function readPayment(bodyPayment: z.infer<typeof paymentPayloadSchema> | undefined, headers: Record<string, string | undefined>): ReceivedPayment | undefined {
  if (bodyPayment !== undefined) return { version: 1, payment: parsePaymentPayload(bodyPayment) }
  const signature = headers['payment-signature']
  if (signature) return parseAnyPaymentPayload(decodePaymentHeader(signature, 'PAYMENT-SIGNATURE'))
  const legacy = headers['x-payment']
  if (legacy) return parseAnyPaymentPayload(decodePaymentHeader(legacy, 'X-PAYMENT'))
  return undefined
}

/**
 * Whether a v2 payload's `accepted` is the option we offer (x402 servers match it against
 * their requirements before verifying). Returns the first field that differs.
 */
export function acceptedMismatch(accepted: PaymentPayloadV2['accepted'], offer: PaymentRequirementsV2 | PaymentRequirements): string | undefined {
  const amount = 'amount' in offer ? offer.amount : offer.maxAmountRequired
  if (accepted.scheme !== offer.scheme) return 'scheme'
  if (accepted.network !== X402_NETWORK_V2) return 'network'
  if (accepted.amount !== amount) return 'amount'
  if (!/^0x[0-9a-fA-F]{40}$/.test(accepted.asset) || !isAddressEqual(accepted.asset as `0x${string}`, offer.asset as `0x${string}`)) return 'asset'
  if (!/^0x[0-9a-fA-F]{40}$/.test(accepted.payTo) || !isAddressEqual(accepted.payTo as `0x${string}`, offer.payTo as `0x${string}`)) return 'payTo'
  return undefined
}

/**
 * The v2 PaymentPayload of an internal payment, for a facilitator that is sent v2 bodies:
 * `accepted` is the requirement it pays, `resource` the requirement's resource.
 */
export function toPaymentPayloadV2(payment: CompletePaymentPayload, requirements: PaymentRequirements) {
  return {
    x402Version: 2 as const,
    resource: { url: requirements.resource, description: requirements.description, mimeType: requirements.mimeType },
    accepted: toRequirementsV2(requirements),
    payload: payment.payload,
    ...('extensions' in payment && payment.extensions ? { extensions: payment.extensions } : {}),
  }
}
