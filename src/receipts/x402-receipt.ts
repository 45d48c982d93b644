import type { EIP712SignedOffer, EIP712SignedReceipt, ReceiptPayload } from '@x402/extensions/offer-receipt'

/**
 * x402's offer-receipt extension (coinbase/x402 specs/extensions/extension-offer-and-receipt.md,
 * v0.6): signed offers in a 402's `extensions["offer-receipt"].info.offers`, a signed receipt in
 * the settlement response's `extensions["offer-receipt"].info.receipt`, both in the canonical
 * EIP-712 form (domain {name, version "1", chainId 1}, types fixed by the spec and not sent),
 * built with @x402/extensions/offer-receipt.
 */
export const OFFER_RECEIPT = 'offer-receipt'

/**
 * The extension package, loaded on first use: with jose and @x402/core it is a few hundred
 * milliseconds of module loading that a start (and a process that never answers a 402) skips.
 */
let extension: Promise<typeof import('@x402/extensions/offer-receipt')> | undefined
export function loadOfferReceipt() {
  return (extension ??= import('@x402/extensions/offer-receipt'))
}

export type X402Receipt = EIP712SignedReceipt
export type X402Offer = EIP712SignedOffer
export type X402ReceiptPayload = ReceiptPayload

/** The JSON Schema of `info` in a settlement response's extension entry (spec §6.5, EIP-712 form). */
export const RECEIPT_INFO_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: {
    receipt: {
      type: 'object',
      properties: {
        format: { type: 'string', const: 'eip712' },
        payload: {
          type: 'object',
          properties: {
            version: { type: 'integer' },
            network: { type: 'string' },
            resourceUrl: { type: 'string' },
            payer: { type: 'string' },
            issuedAt: { type: 'integer' },
            transaction: { type: 'string' },
          },
          required: ['version', 'network', 'resourceUrl', 'payer', 'issuedAt'],
        },
        signature: { type: 'string' },
      },
      required: ['format', 'payload', 'signature'],
    },
  },
  required: ['receipt'],
} as const

/** The facts an x402 receipt states: the CAIP-2 network, the paid resource, payer, settlement, time. */
export type X402ReceiptFacts = { network: string; resourceUrl: string; payer: string; transaction: string; issuedAt: number }

/**
 * The receipt payload (spec §5.2), with `transaction` (this service prefers verifiability:
 * the settlement is on chain anyway) and issuedAt from the stored facts, not the clock, so the
 * same portrait always gets the same receipt.
 */
export function x402ReceiptPayload(facts: X402ReceiptFacts): X402ReceiptPayload {
  return { version: 1, network: facts.network, resourceUrl: facts.resourceUrl, payer: facts.payer, issuedAt: facts.issuedAt, transaction: facts.transaction }
}

/** The settlement response's extension entry that carries a receipt. */
export function receiptExtension(receipt: X402Receipt) {
  return { [OFFER_RECEIPT]: { info: { receipt }, schema: RECEIPT_INFO_SCHEMA } }
}
