import { z } from 'zod'
import { defineOperation, respond } from '../define.ts'
import { addressIn, txHash } from '../schemas.ts'
import { looksmaxxResult, paymentRequiredBody, PORTRAIT_BODY_LIMIT } from './schemas.ts'
import { paymentRequired } from './payment-required.ts'
import { paymentPayloadSchema, encodePaymentResponse, payerOf, paymentTerms } from '../../x402/payload.ts'
import { acceptedMismatch, readPayment, type ReceivedPayment } from '../../x402/payload-v2.ts'
import { fingerprintOf, readPaymentIdentifier } from '../../x402/payment-identifier.ts'
import { X402_NETWORK_V2 } from '../../x402/requirements.ts'
import { submitPortrait, statusUrl, looksmaxxRequirementsFor, type PortraitContext } from '../../pipeline/submit-portrait.ts'
import { findSubmissionByPayment, releasePaymentIdentifier, reservePaymentIdentifier, type PaymentIdentifier } from '../../store/payment-identifiers.ts'
import type { Submission } from '../../store/submissions.ts'
import { AppError } from '../../errors/app-error.ts'
import { toLooksmaxxResult } from './to-result.ts'
import { looksmaxxPaymentRequestHeaders, paymentRequiredHeaders, paymentResponseHeaders } from './x402-headers.ts'
import { X402_NETWORK } from '../../chain/constants.ts'

/** The burner's EIP-712 RedeemBurn (see burnerProof in GET /api/x402/looksmaxx). */
export const burnerSignatureField = z
  .string()
  .regex(/^0x[0-9a-fA-F]{130,}$/, { error: 'must be a 0x-prefixed hex signature of at least 65 bytes' })
  .describe(
    "EIP-712 RedeemBurn signed by burnerAddress (domain 'MegaChad Portrait', version '1', chain 4326, verifyingContract = the portrait NFT) over {burner, burnTxHash, devTxHash, imageHash: keccak256 of the decoded image bytes, payer: the x402 payer or the zero address, deadline}. Needed on /api/generate, and on the x402 path when the payer is not the burner.",
  )
  .meta({ errorCode: 'INVALID_SIGNATURE' })
  .transform((value) => value as `0x${string}`)
export const burnerDeadlineField = z.number().int().positive().describe('Unix seconds: the deadline signed in burnerSignature')

export const portraitFields = {
  burnTxHash: txHash.describe('Transfer of 112,500 tokens to the burn address'),
  devTxHash: txHash.describe('Transfer of 112,500 tokens to the fund wallet (may equal burnTxHash when one transaction carries both)'),
  burnerAddress: addressIn('Address that sent both transfers; the NFT is minted to it'),
  image: z.string().min(1).describe('Base64 portrait (JPEG, PNG or WebP, at most 4 MB decoded); a data: URI is accepted').meta({ errorCode: 'INVALID_IMAGE' }),
  imageType: z.enum(['image/jpeg', 'image/png', 'image/webp']).optional().describe('Must match the bytes when given; omitted, the type is read from the bytes (the spec\'s default image/png, or JPEG or WebP)'),
  burnerSignature: burnerSignatureField.optional(),
  burnerDeadline: burnerDeadlineField.optional(),
}

export const submitLooksmaxx = defineOperation({
  id: 'submit_looksmaxx',
  idempotent: true,
  bodyLimit: PORTRAIT_BODY_LIMIT,
  invalidates: ['portraits', 'token'],
  method: 'POST',
  path: '/api/x402/looksmaxx',
  summary: 'Redeem a 225,000-token burn and a 1 USDm x402 payment for a minted AI portrait NFT',
  description:
    'Only the burner may redeem its burns: a payment signed by burnerAddress proves it; a payer other than the burner needs burnerSignature (EIP-712 RedeemBurn by the burner) or gets 400 INVALID_SIGNATURE. Verifies both burns on chain, claims them atomically (a hash already used gets 409), settles the payment once, then generates, pins and mints. The fee is paid by the x402 exact scheme over the USDm forwarder (EIP-3009) or over Permit2 (x402ExactPermit2Proxy; an EIP-2612 permit of Permit2 may ride along in extensions.eip2612GasSponsoring). The payment goes in paymentPayload, the x402 v1 X-PAYMENT header or the x402 v2 PAYMENT-SIGNATURE header (base64 JSON; over MCP in _meta["x402/payment"]); a submission without any payment gets 402 with the requirements (v1 body, v2 PAYMENT-REQUIRED header), a malformed payment 400. A v2 payment-identifier replays the first result; the same identifier with another payload is 409 PAYMENT_ID_CONFLICT. After settlement the portrait is owed until minted: a 502 carries the status link and the work finishes on its own.',
  tags: ['looksmaxx'],
  input: z.object({
    ...portraitFields,
    paymentPayload: paymentPayloadSchema.optional().describe('x402 v1 exact payment payload (alternative: X-PAYMENT header)').meta({ errorCode: 'INVALID_PAYMENT' }),
  }),
  output: looksmaxxResult,
  requestHeaders: looksmaxxPaymentRequestHeaders(),
  responseHeaders: { 200: paymentResponseHeaders(), 402: paymentRequiredHeaders() },
  extraResponses: [{ status: 402, description: 'No payment, or the payment did not verify or settle; nothing was consumed.', schema: paymentRequiredBody }],
  errors: ['INVALID_ADDRESS', 'INVALID_IMAGE', 'INVALID_PAYMENT', 'INVALID_SIGNATURE', 'SIGNATURE_EXPIRED', 'BURN_VERIFICATION_FAILED', 'RATE_LIMITED', 'PAYMENT_REQUIRED', 'BURN_ALREADY_USED', 'PAYMENT_ID_CONFLICT', 'PAYMENT_IN_PROGRESS', 'UPSTREAM_FAILED'],
  uses: ['config', 'chain', 'db', 'pipeline', 'baseUrl', 'clock'],
  async handler(ctx, input, meta) {
    const received = readPayment(input.paymentPayload, meta.headers)
    if (received === undefined) {
      return paymentRequired(ctx, 'Payment required: send the payment in PAYMENT-SIGNATURE (x402 v2), X-PAYMENT or paymentPayload (v1).')
    }
    if (received.version === 2) {
      // The offer of the payment's kind: an EIP-3009 authorization pays the forwarder option, a Permit2 one the Permit2 option.
      const field = acceptedMismatch(received.v2.accepted, looksmaxxRequirementsFor(ctx, received.payment))
      if (field) return paymentRequired(ctx, `The payment's accepted requirements differ from the offer at ${field}: pay one of the accepts of PAYMENT-REQUIRED as it is. Nothing was consumed.`)
    }
    const payment = received.payment
    const auth = paymentTerms(payment)
    const paymentId = received.version === 2 ? readPaymentIdentifier(received.v2.extensions) : undefined
    if (paymentId !== undefined && received.version === 2) {
      const fingerprint = fingerprintOf(received.v2, { ...input, paymentPayload: undefined })
      const reservation = await reservePaymentIdentifier(ctx.db, { id: paymentId, fingerprint, paymentFrom: auth.from, paymentNonce: auth.nonce })
      if (!reservation.reserved) return replayFirstResult(ctx, paymentId, fingerprint, reservation.existing, received)
    }
    let submission
    try {
      submission = await submitPortrait(ctx, {
        source: 'x402-agent',
        burnTxHash: input.burnTxHash,
        devTxHash: input.devTxHash,
        burner: input.burnerAddress,
        image: input.image,
        imageType: input.imageType,
        payment,
        burnerSignature: input.burnerSignature,
        burnerDeadline: input.burnerDeadline,
      })
    } catch (error) {
      // Refused before anything was claimed: the identifier is free again for a retry.
      if (paymentId !== undefined) await releasePaymentIdentifier(ctx.db, paymentId)
      // x402 clients expect the requirements again with a refused payment.
      if ((error as { code?: string }).code === 'PAYMENT_REQUIRED') {
        return paymentRequired(ctx, (error as Error).message)
      }
      throw error
    }
    return paidAnswer(ctx, submission, received)
  },
})

/** The result with the settlement in the header of the version the client spoke. */
function paidAnswer(ctx: PortraitContext, submission: Submission, received: ReceivedPayment) {
  const result = { ...toLooksmaxxResult(ctx, submission), statusUrl: statusUrl(ctx, submission.burnTxHash) }
  const settlement = {
    success: true,
    transaction: submission.settlementTxHash ?? '',
    network: received.version === 2 ? X402_NETWORK_V2 : X402_NETWORK,
    payer: payerOf(received.payment),
  }
  const header = received.version === 2 ? 'PAYMENT-RESPONSE' : 'X-PAYMENT-RESPONSE'
  return respond(200, result, { [header]: encodePaymentResponse(settlement) })
}

/**
 * A payment identifier seen before: the same payload gets the first result (once minted),
 * another payload a 409, as the payment-identifier extension specifies.
 */
async function replayFirstResult(ctx: PortraitContext, paymentId: string, fingerprint: string, existing: PaymentIdentifier, received: ReceivedPayment) {
  if (existing.fingerprint !== fingerprint) {
    throw new AppError('PAYMENT_ID_CONFLICT', `Payment identifier ${paymentId} was already used with another payment or request. A new payment needs a new identifier.`, {
      details: { paymentId },
    })
  }
  const submission = await findSubmissionByPayment(ctx.db, existing.paymentFrom, existing.paymentNonce)
  if (submission?.status === 'minted') return paidAnswer(ctx, submission, received)
  throw new AppError('PAYMENT_IN_PROGRESS', `The first request with payment identifier ${paymentId} is still being processed. Send the same request again later, or follow the status link.`, {
    details: { paymentId, ...(submission ? { status: submission.status, statusUrl: statusUrl(ctx, submission.burnTxHash) } : {}) },
  })
}
