import type { LocalAccount } from 'viem'
import { CHAIN_ID } from '../chain/constants.ts'
import { deliveryReceiptPayload, deliveryReceiptTypedData, DELIVERY_RECEIPT_DOMAIN, DELIVERY_RECEIPT_PRIMARY_TYPE, type DeliveryFacts, type SignedDeliveryReceipt } from './delivery-receipt.ts'
import { loadOfferReceipt, x402ReceiptPayload, type X402Receipt, type X402ReceiptFacts } from './x402-receipt.ts'

/** Both receipts of a portrait: the x402 one (null without an x402 payment) and the delivery receipt. */
export type Receipts = { x402: X402Receipt | null; delivery: SignedDeliveryReceipt }

/** One x402 v2 `accepts[]` entry, as the offer-receipt extension reads it. */
export type OfferTerms = { scheme: string; network: string; asset: string; payTo: string; amount: string; maxTimeoutSeconds: number }

/**
 * Signs what the service states about payments: the offers of a 402 and the receipts of a
 * portrait. One key signs both (the one the agent index and the ERC-8004 registration
 * publish). Receipts are a pure function of stored facts and signatures are deterministic
 * (RFC 6979), so a portrait's receipts are the same bytes on every read, in every process.
 */
export type ReceiptIssuer = {
  /** The signing key's address. */
  address: `0x${string}`
  /** The key as a DID (offer-receipt's `kid`): did:pkh:eip155:4326:<address>. */
  kid: string
  /** The `extensions["offer-receipt"]` entry of a 402 for these terms: one signed offer per entry. */
  offers(resourceUrl: string, accepts: OfferTerms[]): Promise<{ info: { offers: unknown[] }; schema: unknown }>
  /** The receipts of a minted portrait. */
  receipts(facts: { x402?: X402ReceiptFacts; delivery: DeliveryFacts }): Promise<Receipts>
}

/** Signed offers are reused until this share of their validity is left (a fresh one every few minutes, not per 402). */
const OFFER_REUSE_SHARE = 0.5
const HELD_RECEIPTS = 1000

export function createReceiptIssuer(account: LocalAccount, clock: () => number = Date.now): ReceiptIssuer {
  const kid = `did:pkh:eip155:${CHAIN_ID}:${account.address}`
  const sign = (typed: Parameters<LocalAccount['signTypedData']>[0]) => account.signTypedData(typed)
  const heldOffers = new Map<string, { until: number; value: Promise<{ info: { offers: unknown[] }; schema: unknown }> }>()
  // Only saves signing again; a receipt signed twice is the same signature.
  const heldReceipts = new Map<string, Promise<Receipts>>()
  return {
    address: account.address,
    kid,
    offers(resourceUrl, accepts) {
      const key = JSON.stringify([resourceUrl, accepts])
      const now = clock()
      const held = heldOffers.get(key)
      if (held && held.until > now) return held.value
      const validity = Math.min(...accepts.map((a) => a.maxTimeoutSeconds))
      const value = (async () => {
        const { createEIP712OfferReceiptIssuer, createOfferReceiptExtension, declareOfferReceiptExtension, OFFER_RECEIPT } = await loadOfferReceipt()
        const extension = createOfferReceiptExtension(createEIP712OfferReceiptIssuer(kid, sign as never))
        const declaration = declareOfferReceiptExtension({ includeTxHash: true, offerValiditySeconds: validity })[OFFER_RECEIPT]
        const entry = await extension.enrichPaymentRequiredResponse!(declaration, {
          paymentRequiredResponse: { x402Version: 2, resource: { url: resourceUrl }, accepts },
          requirements: accepts,
        } as never)
        if (!entry) throw new Error('the offer-receipt extension signed no offer')
        return entry as { info: { offers: unknown[] }; schema: unknown }
      })()
      value.catch(() => heldOffers.delete(key))
      heldOffers.set(key, { until: now + validity * 1000 * OFFER_REUSE_SHARE, value })
      if (heldOffers.size > 100) heldOffers.delete(heldOffers.keys().next().value!)
      return value
    },
    receipts(facts) {
      const key = JSON.stringify(facts, (_, v) => (typeof v === 'bigint' ? v.toString() : v))
      const held = heldReceipts.get(key)
      if (held) return held
      const value = (async (): Promise<Receipts> => {
        const payload = deliveryReceiptPayload(facts.delivery)
        const delivery: SignedDeliveryReceipt = {
          format: 'eip712',
          domain: DELIVERY_RECEIPT_DOMAIN,
          primaryType: DELIVERY_RECEIPT_PRIMARY_TYPE,
          payload,
          signature: await account.signTypedData(deliveryReceiptTypedData(payload)),
        }
        if (!facts.x402) return { x402: null, delivery }
        const { signReceiptEIP712 } = await loadOfferReceipt()
        const receiptPayload = x402ReceiptPayload(facts.x402)
        return { x402: { format: 'eip712', payload: receiptPayload, signature: await signReceiptEIP712(receiptPayload, sign as never) }, delivery }
      })()
      value.catch(() => heldReceipts.delete(key))
      heldReceipts.set(key, value)
      if (heldReceipts.size > HELD_RECEIPTS) heldReceipts.delete(heldReceipts.keys().next().value!)
      return value
    },
  }
}
