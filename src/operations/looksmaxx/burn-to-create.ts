import { z } from 'zod'
import { defineOperation } from '../define.ts'
import { looksmaxxResult, PORTRAIT_BODY_LIMIT } from './schemas.ts'
import { portraitFields, burnerSignatureField, burnerDeadlineField } from './input.ts'
import { submitPortrait, statusUrl } from '../../pipeline/submit-portrait.ts'
import { toLooksmaxxResult } from './to-result.ts'

export const burnToCreate = defineOperation({
  id: 'burn_to_create',
  idempotent: true,
  bodyLimit: PORTRAIT_BODY_LIMIT,
  invalidates: ['portraits', 'token'],
  method: 'POST',
  path: '/api/generate',
  summary: 'Redeem a 225,000-token burn for a minted AI portrait NFT, without the x402 fee',
  description:
    'The looksmaxx submission without the payment. Without a payment nothing else proves who sends the request, so burnerSignature and burnerDeadline are required: an EIP-712 RedeemBurn by burnerAddress over the burns, keccak256 of the decoded image bytes and the zero address as payer (see burnerProof in GET /api/x402/looksmaxx); a bot that sees a fresh burn cannot redeem it. The same burn verification, replay protection (a burn redeems once, on either path), generation, pinning and mint. source is burn-to-create.',
  tags: ['looksmaxx'],
  input: z.object({ ...portraitFields, burnerSignature: burnerSignatureField, burnerDeadline: burnerDeadlineField }),
  output: looksmaxxResult,
  errors: ['INVALID_ADDRESS', 'INVALID_IMAGE', 'INVALID_SIGNATURE', 'SIGNATURE_EXPIRED', 'BURN_VERIFICATION_FAILED', 'RATE_LIMITED', 'BURN_ALREADY_USED', 'UPSTREAM_FAILED'],
  uses: ['config', 'chain', 'db', 'pipeline', 'baseUrl', 'clock', 'receipts'],
  async handler(ctx, input) {
    const submission = await submitPortrait(ctx, {
      source: 'burn-to-create',
      burnTxHash: input.burnTxHash,
      devTxHash: input.devTxHash,
      burner: input.burnerAddress,
      image: input.image,
      imageType: input.imageType,
      burnerSignature: input.burnerSignature,
      burnerDeadline: input.burnerDeadline,
    })
    return { ...(await toLooksmaxxResult(ctx, submission)), statusUrl: statusUrl(ctx, submission.burnTxHash) }
  },
})
