import { z } from 'zod'
import { defineOperation } from '../define.ts'
import { looksmaxxResult } from './schemas.ts'
import { portraitFields } from './submit-looksmaxx.ts'
import { submitPortrait, statusUrl } from '../../pipeline/submit-portrait.ts'
import { toLooksmaxxResult } from './to-result.ts'

export const burnToCreate = defineOperation({
  id: 'burn_to_create',
  invalidates: ['portraits', 'token'],
  method: 'POST',
  path: '/api/generate',
  summary: 'Redeem a 225,000-token burn for a minted AI portrait NFT, without the x402 fee',
  description:
    'The looksmaxx submission without the payment: the same burn verification, replay protection (a burn redeems once, on either path), generation, pinning and mint. source is burn-to-create.',
  tags: ['looksmaxx'],
  input: z.object(portraitFields),
  output: looksmaxxResult,
  errors: ['INVALID_ADDRESS', 'INVALID_IMAGE', 'BURN_VERIFICATION_FAILED', 'BURN_ALREADY_USED', 'UPSTREAM_FAILED'],
  async handler(ctx, input) {
    const submission = await submitPortrait(ctx, {
      source: 'burn-to-create',
      burnTxHash: input.burnTxHash,
      devTxHash: input.devTxHash,
      burner: input.burnerAddress,
      image: input.image,
      imageType: input.imageType,
    })
    return { ...toLooksmaxxResult(ctx, submission), statusUrl: statusUrl(ctx, submission.burnTxHash) }
  },
})
