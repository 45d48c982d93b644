import { z } from 'zod'
import { addressIn, txHash } from '../schemas.ts'
import { paymentPayloadSchema } from '../../x402/payload.ts'

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

/** The looksmaxx submission's input: the portrait fields and, optionally, the payment in the body. */
export const submitLooksmaxxInput = z.object({
  ...portraitFields,
  paymentPayload: paymentPayloadSchema.optional().describe('x402 v1 exact payment payload (alternative: X-PAYMENT header)').meta({ errorCode: 'INVALID_PAYMENT' }),
})
