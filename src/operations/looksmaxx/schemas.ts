import { z } from 'zod'
import { addressOut, hexData, wei } from '../schemas.ts'

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
  extensions: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('x402 extensions of this offer: "offer-receipt" carries the offer signed by the receipt key (info.offers[], EIP-712)'),
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

const bytes32 = z.string().regex(/^0x[0-9a-fA-F]{64}$/)

/** x402 offer-receipt's receipt, EIP-712 form (domain {name "x402 receipt", version "1", chainId 1}). */
export const x402ReceiptOut = z
  .object({
    format: z.literal('eip712'),
    payload: z.object({
      version: z.number().int(),
      network: z.string().describe('CAIP-2: eip155:4326'),
      resourceUrl: z.string().describe('The paid resource the payment was offered for (the HTTP route, or the MCP endpoint)'),
      payer: z.string(),
      issuedAt: z.number().int().describe('Unix seconds: when the mint was recorded'),
      transaction: z.string().describe('The settlement transaction'),
    }),
    signature: hexData,
  })
  .describe("x402's offer-receipt receipt (canonical EIP-712 types of the extension)")

/** The service's own delivery receipt (docs/agents/receipts.md, /.well-known/receipts.json). */
export const deliveryReceiptOut = z
  .object({
    format: z.literal('eip712'),
    domain: z.object({ name: z.string(), version: z.string(), chainId: z.number().int() }),
    primaryType: z.literal('DeliveryReceipt'),
    payload: z.object({
      source: z.string(),
      payment: z.object({ network: z.string(), transaction: bytes32, asset: addressOut, amount: wei, payer: addressOut, payTo: addressOut }),
      burn: z.object({ burner: addressOut, token: addressOut, burnTx: bytes32, devTx: bytes32, amount: wei }),
      delivery: z.object({ nft: addressOut, tokenId: z.string(), recipient: addressOut, imageCid: z.string(), metadataUri: z.string(), mintTx: bytes32 }),
      issuedAt: z.number().int(),
    }),
    signature: hexData,
  })
  .describe('EIP-712 DeliveryReceipt binding the payment, both burns and the minted token')

export const receiptsOut = z
  .object({ x402: x402ReceiptOut.nullable().describe('Null for a portrait without an x402 payment (burn-to-create)'), delivery: deliveryReceiptOut })
  .describe('Both receipts, signed by the receipt key that /api/agent and the ERC-8004 registration publish; the same on every read of this portrait')

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
  receipts: receiptsOut,
})

/** Largest looksmaxx request body: a 4 MB portrait in base64 (about 5.4 MB) plus the other fields. */
export const PORTRAIT_BODY_LIMIT = 7 * 1024 * 1024
