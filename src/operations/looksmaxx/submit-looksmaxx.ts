import { defineOperation, respond, type Ports } from '../define.ts'
import { looksmaxxResult, paymentRequiredBody, PORTRAIT_BODY_LIMIT } from './schemas.ts'
import { looksmaxxResource, paymentRequired, type PaidTransport } from './payment-required.ts'
import { submitLooksmaxxInput } from './input.ts'
import { encodePaymentResponse, payerOf, paymentTerms } from '../../x402/payload.ts'
import { receiptExtension } from '../../receipts/x402-receipt.ts'
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

export const submitLooksmaxx = defineOperation({
  id: 'submit_looksmaxx',
  idempotent: true,
  bodyLimit: PORTRAIT_BODY_LIMIT,
  invalidates: ['portraits', 'token'],
  method: 'POST',
  path: '/api/x402/looksmaxx',
  summary: 'Redeem a 225,000-token burn and a 1 USDm x402 payment for a minted AI portrait NFT',
  description:
    'Only the burner may redeem its burns: a payment signed by burnerAddress proves it; a payer other than the burner needs burnerSignature (EIP-712 RedeemBurn by the burner) or gets 400 INVALID_SIGNATURE. Verifies both burns on chain, claims them atomically (a hash already used gets 409), settles the payment once, then generates, pins and mints. The fee is paid by the x402 exact scheme over the USDm forwarder (EIP-3009) or over Permit2 (x402ExactPermit2Proxy; an EIP-2612 permit of Permit2 may ride along in extensions.eip2612GasSponsoring). The payment goes in paymentPayload, the x402 v1 X-PAYMENT header or the x402 v2 PAYMENT-SIGNATURE header (base64 JSON; over MCP in _meta["x402/payment"]); a submission without any payment gets 402 with the requirements (v1 body, v2 PAYMENT-REQUIRED header, with offers signed by the receipt key and the bazaar declaration), a malformed payment 400 (over MCP: the PaymentRequired with the reason, as the x402 MCP binding says). The answer carries two receipts signed by the receipt key (receipts.x402, also in extensions["offer-receipt"] of the settlement header, and receipts.delivery). A v2 payment-identifier replays the first result; the same identifier with another payload is 409 PAYMENT_ID_CONFLICT. After settlement the portrait is owed until minted: a 502 carries the status link and the work finishes on its own.',
  tags: ['looksmaxx'],
  input: submitLooksmaxxInput,
  output: looksmaxxResult,
  requestHeaders: looksmaxxPaymentRequestHeaders(),
  responseHeaders: { 200: paymentResponseHeaders(), 402: paymentRequiredHeaders() },
  extraResponses: [{ status: 402, description: 'No payment, or the payment did not verify or settle; nothing was consumed.', schema: paymentRequiredBody }],
  errors: ['INVALID_ADDRESS', 'INVALID_IMAGE', 'INVALID_PAYMENT', 'INVALID_SIGNATURE', 'SIGNATURE_EXPIRED', 'BURN_VERIFICATION_FAILED', 'RATE_LIMITED', 'PAYMENT_REQUIRED', 'BURN_ALREADY_USED', 'PAYMENT_ID_CONFLICT', 'PAYMENT_IN_PROGRESS', 'UPSTREAM_FAILED'],
  uses: ['config', 'chain', 'db', 'pipeline', 'baseUrl', 'clock', 'receipts'],
  async handler(ctx, input, meta) {
    const transport: PaidTransport = meta.transport === 'mcp' ? 'mcp' : 'http'
    let received
    let paymentId: string | undefined
    try {
      received = readPayment(input.paymentPayload, meta.headers)
      paymentId = received?.version === 2 ? readPaymentIdentifier(received.v2.extensions) : undefined
    } catch (error) {
      // x402 over MCP: a payment that does not verify is answered with the requirements and the
      // reason (transports-v2/mcp.md, Error Handling), not with a tool error a client cannot pay.
      if (transport === 'mcp' && (error as { code?: string }).code === 'INVALID_PAYMENT') return paymentRequired(ctx, (error as Error).message, transport)
      throw error
    }
    if (received === undefined) {
      return paymentRequired(
        ctx,
        transport === 'mcp'
          ? 'Payment required: call the tool again with the payment in _meta["x402/payment"] (x402 v2 PaymentPayload).'
          : 'Payment required: send the payment in PAYMENT-SIGNATURE (x402 v2), X-PAYMENT or paymentPayload (v1).',
        transport,
      )
    }
    if (received.version === 2) {
      // The offer of the payment's kind: an EIP-3009 authorization pays the forwarder option, a Permit2 one the Permit2 option.
      const field = acceptedMismatch(received.v2.accepted, looksmaxxRequirementsFor(ctx, received.payment, looksmaxxResource(ctx, transport)))
      if (field) return paymentRequired(ctx, `The payment's accepted requirements differ from the offer at ${field}: pay one of the accepts of ${transport === 'mcp' ? 'the payment-required result' : 'PAYMENT-REQUIRED'} as it is. Nothing was consumed.`, transport)
    }
    const payment = received.payment
    const auth = paymentTerms(payment)
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
        resource: looksmaxxResource(ctx, transport),
        burnerSignature: input.burnerSignature,
        burnerDeadline: input.burnerDeadline,
      })
    } catch (error) {
      // Refused before anything was claimed: the identifier is free again for a retry.
      if (paymentId !== undefined) await releasePaymentIdentifier(ctx.db, paymentId)
      // x402 clients expect the requirements again with a refused payment.
      if ((error as { code?: string }).code === 'PAYMENT_REQUIRED') {
        return paymentRequired(ctx, (error as Error).message, transport)
      }
      throw error
    }
    return paidAnswer(ctx, submission, received)
  },
})

type PaidContext = PortraitContext & Ports<'receipts'>

/**
 * The result with the settlement in the header of the version the client spoke; the settlement
 * carries the x402 receipt where offer-receipt places it (extensions["offer-receipt"].info.receipt).
 */
async function paidAnswer(ctx: PaidContext, submission: Submission, received: ReceivedPayment) {
  const result = { ...(await toLooksmaxxResult(ctx, submission)), statusUrl: statusUrl(ctx, submission.burnTxHash) }
  const settlement = {
    success: true,
    transaction: submission.settlementTxHash ?? '',
    network: received.version === 2 ? X402_NETWORK_V2 : X402_NETWORK,
    payer: payerOf(received.payment),
    ...(result.receipts.x402 ? { extensions: receiptExtension(result.receipts.x402) } : {}),
  }
  const header = received.version === 2 ? 'PAYMENT-RESPONSE' : 'X-PAYMENT-RESPONSE'
  return respond(200, result, { [header]: encodePaymentResponse(settlement) })
}

/**
 * A payment identifier seen before: the same payload gets the first result (once minted),
 * another payload a 409, as the payment-identifier extension specifies.
 */
async function replayFirstResult(ctx: PaidContext, paymentId: string, fingerprint: string, existing: PaymentIdentifier, received: ReceivedPayment) {
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
