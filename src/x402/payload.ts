import { z } from 'zod'
import { AppError } from '../errors/app-error.ts'

const hex = (bytes: number) => z.string().regex(new RegExp(`^0x[0-9a-fA-F]{${bytes * 2}}$`))
const uintString = z.union([z.string().regex(/^\d+$/), z.number().int().nonnegative().transform(String)])
const uint256String = uintString.refine((value) => value.length <= 78 && BigInt(value) < 2n ** 256n, { error: 'must be a uint256' })

export const authorizationSchema = z.object({
  from: hex(20),
  to: hex(20),
  value: uintString,
  validAfter: uintString,
  validBefore: uintString,
  nonce: hex(32),
})

/**
 * The x402 `exact` scheme over Permit2 (what @x402/evm signs when `extra.assetTransferMethod`
 * is "permit2"): a PermitWitnessTransferFrom with the x402 exact proxy as spender and the
 * payee in the witness. nonce, deadline and amounts are decimal strings.
 */
export const permit2AuthorizationSchema = z.object({
  from: hex(20),
  permitted: z.object({ token: hex(20), amount: uint256String }),
  spender: hex(20),
  nonce: uint256String,
  deadline: uint256String,
  witness: z.object({ to: hex(20), validAfter: uint256String }),
})
export type Permit2Authorization = z.infer<typeof permit2AuthorizationSchema>

/**
 * The payer's EIP-2612 permit of Permit2 on the asset, carried in a v2 payload's
 * `extensions.eip2612GasSponsoring.info` when its Permit2 allowance is short: the settlement
 * then approves and pays in one transaction (the proxy's settleWithPermit).
 */
export const eip2612InfoSchema = z.object({
  from: hex(20),
  asset: hex(20),
  spender: hex(20),
  amount: z.string().regex(/^\d+$/),
  nonce: z.string().regex(/^\d+$/),
  deadline: z.string().regex(/^\d+$/),
  signature: z.string().regex(/^0x[0-9a-fA-F]+$/),
  version: z.string().regex(/^\d+(\.\d+)*$/),
})
export type Eip2612Info = z.infer<typeof eip2612InfoSchema>
export const EIP2612_GAS_SPONSORING = 'eip2612GasSponsoring'

const signature = z.string().regex(/^0x[0-9a-fA-F]+$/, { error: 'must be a 0x-prefixed hex signature' })

/** The x402 v1 `exact` EVM payment payload (body field paymentPayload, or X-PAYMENT header). */
export const paymentPayloadSchema = z.object({
  x402Version: z.number().int().optional(),
  scheme: z.string().optional(),
  network: z.string().optional(),
  payload: z.object({
    signature,
    authorization: authorizationSchema.optional(),
    permit2Authorization: permit2AuthorizationSchema.optional(),
  }),
})
export type PaymentPayload = z.infer<typeof paymentPayloadSchema>

type Envelope = Pick<PaymentPayload, 'x402Version' | 'scheme' | 'network'>
/** An EIP-3009 payment through the USDm forwarder. */
export type Eip3009Payment = Envelope & { payload: { signature: `0x${string}`; authorization: z.infer<typeof authorizationSchema> } }
/** A Permit2 payment through the x402 exact proxy, with the payer's EIP-2612 permit when it sent one. */
export type Permit2Payment = Envelope & {
  payload: { signature: `0x${string}`; permit2Authorization: Permit2Authorization }
  extensions?: { [EIP2612_GAS_SPONSORING]?: { info: Eip2612Info } }
}
/**
 * A payload complete enough to verify and settle, in the one internal form the pipeline
 * stores (v1 envelope): the spec lets `authorization` be omitted, x402 needs one of the two.
 */
export type CompletePaymentPayload = Eip3009Payment | Permit2Payment
export type TransferMethod = 'eip3009' | 'permit2'

export function isPermit2Payment(payment: CompletePaymentPayload): payment is Permit2Payment {
  return 'permit2Authorization' in payment.payload && payment.payload.permit2Authorization !== undefined
}

export function transferMethodOfPayment(payment: CompletePaymentPayload): TransferMethod {
  return isPermit2Payment(payment) ? 'permit2' : 'eip3009'
}

/**
 * What a payment commits to, whichever way it moves the token: who pays whom how much, the
 * nonce that makes it pay once (a Permit2 nonce as 32 bytes of hex, the form the store keeps)
 * and its window. `validBefore` is a Permit2 permit's deadline.
 */
export type PaymentTerms = {
  method: TransferMethod
  from: `0x${string}`
  to: `0x${string}`
  value: bigint
  nonce: `0x${string}`
  validAfter: bigint
  validBefore: bigint
}

export function paymentTerms(payment: CompletePaymentPayload): PaymentTerms {
  if (isPermit2Payment(payment)) {
    const auth = payment.payload.permit2Authorization
    return {
      method: 'permit2',
      from: auth.from as `0x${string}`,
      to: auth.witness.to as `0x${string}`,
      value: BigInt(auth.permitted.amount),
      nonce: `0x${BigInt(auth.nonce).toString(16).padStart(64, '0')}`,
      validAfter: BigInt(auth.witness.validAfter),
      validBefore: BigInt(auth.deadline),
    }
  }
  const auth = payment.payload.authorization
  return {
    method: 'eip3009',
    from: auth.from as `0x${string}`,
    to: auth.to as `0x${string}`,
    value: BigInt(auth.value),
    nonce: auth.nonce as `0x${string}`,
    validAfter: BigInt(auth.validAfter),
    validBefore: BigInt(auth.validBefore),
  }
}

/** The address that signed the payment. */
export function payerOf(payment: CompletePaymentPayload): `0x${string}` {
  return isPermit2Payment(payment) ? (payment.payload.permit2Authorization.from as `0x${string}`) : (payment.payload.authorization.from as `0x${string}`)
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
  return completePayload(parsed.data)
}

/** The payload with exactly one way of paying, or a 400 saying what is missing. */
export function completePayload(data: PaymentPayload, extensions?: Record<string, unknown>): CompletePaymentPayload {
  const { authorization, permit2Authorization, signature } = data.payload
  const envelope = { x402Version: data.x402Version, scheme: data.scheme, network: data.network }
  if (authorization && permit2Authorization) {
    throw invalidPayment('The payment payload carries both payload.authorization and payload.permit2Authorization: send one.')
  }
  if (permit2Authorization) {
    const permit = readEip2612Info(extensions)
    return { ...envelope, payload: { signature: signature as `0x${string}`, permit2Authorization }, ...(permit ? { extensions: { [EIP2612_GAS_SPONSORING]: { info: permit } } } : {}) }
  }
  if (!authorization) {
    throw invalidPayment('The payment payload has no payload.authorization (EIP-3009) nor payload.permit2Authorization (Permit2): an x402 exact payment needs one to settle.')
  }
  return { ...envelope, payload: { signature: signature as `0x${string}`, authorization } }
}

/**
 * The EIP-2612 permit of a v2 payload's extensions, if it carries one. Stock clients echo the
 * 402's declaration ({info: {description, version}}) when they sign no permit, so an info
 * without the permit's fields is no permit, as the x402 facilitator reads it; fields in a
 * wrong format are left to verification (invalid_eip2612_extension_format).
 */
function readEip2612Info(extensions: Record<string, unknown> | undefined): Eip2612Info | undefined {
  const info = (extensions?.[EIP2612_GAS_SPONSORING] as { info?: Record<string, unknown> } | undefined)?.info
  const fields = ['from', 'asset', 'spender', 'amount', 'nonce', 'deadline', 'signature', 'version'] as const
  if (!info || fields.some((field) => typeof info[field] !== 'string' || info[field] === '')) return undefined
  return Object.fromEntries(fields.map((field) => [field, info[field]])) as Eip2612Info
}

/** The X-PAYMENT-RESPONSE (v1) or PAYMENT-RESPONSE (v2) header value: base64 of the settlement response JSON. */
export function encodePaymentResponse(response: { success: boolean; transaction: string; network: string; payer: string; errorReason?: string }): string {
  return Buffer.from(JSON.stringify(response)).toString('base64')
}
