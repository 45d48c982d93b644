import { z } from 'zod'
import { defineOperation, respond } from '../define.ts'
import { addressIn, txHash } from '../schemas.ts'
import { looksmaxxResult, paymentRequiredBody, PORTRAIT_BODY_LIMIT } from './schemas.ts'
import { paymentRequired } from './payment-required.ts'
import { paymentPayloadSchema, parsePaymentPayload, decodePaymentHeader, encodePaymentResponse } from '../../x402/payload.ts'
import { submitPortrait, statusUrl } from '../../pipeline/submit-portrait.ts'
import { toLooksmaxxResult } from './to-result.ts'
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
  imageType: z.enum(['image/jpeg', 'image/png', 'image/webp']).optional().describe('Default image/png; must match the bytes'),
  burnerSignature: burnerSignatureField.optional(),
  burnerDeadline: burnerDeadlineField.optional(),
}

export const submitLooksmaxx = defineOperation({
  id: 'submit_looksmaxx',
  bodyLimit: PORTRAIT_BODY_LIMIT,
  invalidates: ['portraits', 'token'],
  method: 'POST',
  path: '/api/x402/looksmaxx',
  summary: 'Redeem a 225,000-token burn and a 1 USDm x402 payment for a minted AI portrait NFT',
  description:
    'Only the burner may redeem its burns: a payment signed by burnerAddress proves it; a payer other than the burner needs burnerSignature (EIP-712 RedeemBurn by the burner) or gets 400 INVALID_SIGNATURE. Verifies both burns on chain, claims them atomically (a hash already used gets 409), settles the payment once, then generates, pins and mints. The payment goes in paymentPayload or in the standard X-PAYMENT header (base64 JSON); a submission without any payment gets 402 with the requirements, a malformed payment 400. After settlement the portrait is owed until minted: a 502 carries the status link and the work finishes on its own.',
  tags: ['looksmaxx'],
  input: z.object({
    ...portraitFields,
    paymentPayload: paymentPayloadSchema.optional().describe('x402 v1 exact payment payload (alternative: X-PAYMENT header)').meta({ errorCode: 'INVALID_PAYMENT' }),
  }),
  output: looksmaxxResult,
  extraResponses: [{ status: 402, description: 'No payment, or the payment did not verify or settle; nothing was consumed.', schema: paymentRequiredBody }],
  errors: ['INVALID_ADDRESS', 'INVALID_IMAGE', 'INVALID_PAYMENT', 'INVALID_SIGNATURE', 'SIGNATURE_EXPIRED', 'BURN_VERIFICATION_FAILED', 'RATE_LIMITED', 'PAYMENT_REQUIRED', 'BURN_ALREADY_USED', 'UPSTREAM_FAILED'],
  async handler(ctx, input, meta) {
    const header = meta.headers['x-payment']
    const rawPayment = input.paymentPayload ?? (header ? decodePaymentHeader(header) : undefined)
    if (rawPayment === undefined) return paymentRequired(ctx, 'X-PAYMENT header or paymentPayload is required')
    const payment = parsePaymentPayload(rawPayment)
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
      // x402 clients expect the requirements again with a refused payment.
      if ((error as { code?: string }).code === 'PAYMENT_REQUIRED') {
        return paymentRequired(ctx, (error as Error).message)
      }
      throw error
    }
    const result = { ...toLooksmaxxResult(ctx, submission), statusUrl: statusUrl(ctx, submission.burnTxHash) }
    return respond(200, result, {
      'X-PAYMENT-RESPONSE': encodePaymentResponse({
        success: true,
        transaction: submission.settlementTxHash ?? '',
        network: X402_NETWORK,
        payer: payment.payload.authorization.from,
      }),
    })
  },
})
