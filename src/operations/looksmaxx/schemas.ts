import { z } from 'zod'
import { addressOut, wei } from '../schemas.ts'

export const paymentRequirementsOut = z.object({
  scheme: z.string(),
  network: z.string(),
  maxAmountRequired: wei,
  resource: z.string(),
  description: z.string(),
  mimeType: z.string(),
  payTo: addressOut,
  maxTimeoutSeconds: z.number().int(),
  asset: addressOut,
  extra: z.object({
    name: z.string(),
    version: z.string(),
    assetTransferMethod: z.literal('permit2').optional().describe('Present on the Permit2 option: sign a Permit2 witness transfer, not an EIP-3009 authorization'),
  }),
})

export const paymentRequiredBody = z.object({
  x402Version: z.literal(1),
  error: z.string().optional(),
  accepts: z.array(paymentRequirementsOut),
  burnRequirements: z.object({
    token: addressOut,
    totalAmount: wei,
    burnAddress: addressOut,
    burnAmount: wei,
    trenFundWallet: addressOut,
    trenFundAmount: wei,
    description: z.string(),
  }),
  instructions: z.object({ step1: z.string(), step2: z.string(), step3: z.string(), step4: z.string() }),
  burnerProof: z
    .object({
      description: z.string(),
      domain: z.object({ name: z.string(), version: z.string(), chainId: z.number().int(), verifyingContract: addressOut }),
      types: z.record(z.string(), z.array(z.object({ name: z.string(), type: z.string() }))),
      primaryType: z.literal('RedeemBurn'),
      message: z.record(z.string(), z.string()),
    })
    .optional()
    .describe('Who may redeem a burn: the EIP-712 RedeemBurn a burner signs when it does not pay itself'),
})

export const looksmaxxResult = z.object({
  success: z.literal(true),
  source: z.string(),
  imageUrl: z.string(),
  ipfsCid: z.string(),
  ipfsUrl: z.string(),
  tokenId: z.string().nullable(),
  burnTxHash: z.string(),
  devTxHash: z.string(),
  metadataCid: z.string().optional(),
  mintTxHash: z.string().optional(),
  settlementTxHash: z.string().optional(),
  statusUrl: z.string().optional(),
})

/** Largest looksmaxx request body: a 4 MB portrait in base64 (about 5.4 MB) plus the other fields. */
export const PORTRAIT_BODY_LIMIT = 7 * 1024 * 1024
