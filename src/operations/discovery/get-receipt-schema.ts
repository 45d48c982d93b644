import { z } from 'zod'
import { defineOperation, type Ports } from '../define.ts'
import { addressOut } from '../schemas.ts'
import { DELIVERY_RECEIPT_DOMAIN, DELIVERY_RECEIPT_PRIMARY_TYPE, DELIVERY_RECEIPT_TYPES } from '../../receipts/delivery-receipt.ts'
import { loadOfferReceipt } from '../../receipts/x402-receipt.ts'

export const RECEIPT_SCHEMA_PATH = '/.well-known/receipts.json'

/** Where the receipt key is published: the agent index and the ERC-8004 registration carry this. */
export const receiptKeyOut = z.object({
  signer: addressOut.describe('The address every offer and receipt of this service recovers to'),
  kid: z.string().describe('The same key as a DID (offer-receipt kid): did:pkh:eip155:4326:<signer>'),
  schema: z.string().describe('The receipt types and how to verify them'),
})

export function receiptKey(ctx: Ports<'receipts' | 'baseUrl'>): z.infer<typeof receiptKeyOut> {
  return { signer: ctx.receipts.address, kid: ctx.receipts.kid, schema: `${ctx.baseUrl()}${RECEIPT_SCHEMA_PATH}` }
}

const field = z.object({ name: z.string(), type: z.string() })
const typeSet = z.record(z.string(), z.array(field))

export const getReceiptSchema = defineOperation({
  id: 'get_receipt_schema',
  method: 'GET',
  path: RECEIPT_SCHEMA_PATH,
  summary: 'The receipt key and the EIP-712 types of the offers and receipts this service signs',
  description:
    'Every paid answer carries two receipts signed by one key: x402 offer-receipt\'s receipt and the service\'s DeliveryReceipt (payment, both burns, the minted token). This document names the key (also in /api/agent and the ERC-8004 registration) and the domains and types to verify them with viem\'s verifyTypedData; docs/agents/receipts.md has the five lines.',
  tags: ['discovery'],
  input: z.object({}),
  output: z.object({
    key: receiptKeyOut,
    x402: z.object({
      extension: z.literal('offer-receipt'),
      specification: z.string(),
      offer: z.object({ domain: z.object({ name: z.string(), version: z.string(), chainId: z.number().int() }), primaryType: z.literal('Offer'), types: typeSet }),
      receipt: z.object({ domain: z.object({ name: z.string(), version: z.string(), chainId: z.number().int() }), primaryType: z.literal('Receipt'), types: typeSet }),
      placement: z.object({ offers: z.string(), receipt: z.string() }),
    }),
    delivery: z.object({ domain: z.object({ name: z.string(), version: z.string(), chainId: z.number().int() }), primaryType: z.literal('DeliveryReceipt'), types: typeSet }),
    document: z.object({ url: z.string(), hash: z.string() }),
  }),
  errors: [],
  cacheSeconds: 3600,
  staleSeconds: 3600,
  mcp: { tool: 'get_discovery_document', as: 'receipt_schema' },
  uses: ['receipts', 'baseUrl'],
  async handler(ctx) {
    const base = ctx.baseUrl()
    // The extension's canonical schema, from the package that signs with it (spec §4.3, §5.3).
    const { OFFER_TYPES, RECEIPT_TYPES, createOfferDomain, createReceiptDomain } = await loadOfferReceipt()
    const domainOf = (d: { name?: string; version?: string; chainId?: number | bigint }) => ({ name: d.name!, version: d.version!, chainId: Number(d.chainId) })
    return {
      key: receiptKey(ctx),
      x402: {
        extension: 'offer-receipt' as const,
        specification: 'https://github.com/coinbase/x402/blob/main/specs/extensions/extension-offer-and-receipt.md',
        offer: { domain: domainOf(createOfferDomain()), primaryType: 'Offer' as const, types: OFFER_TYPES },
        receipt: { domain: domainOf(createReceiptDomain()), primaryType: 'Receipt' as const, types: RECEIPT_TYPES },
        placement: {
          offers: '402: extensions["offer-receipt"].info.offers[] (PAYMENT-REQUIRED header, v1 body, MCP payment-required result)',
          receipt: 'settlement response: extensions["offer-receipt"].info.receipt (PAYMENT-RESPONSE or X-PAYMENT-RESPONSE header, MCP _meta["x402/payment-response"]); also receipts.x402 of the result',
        },
      },
      delivery: {
        domain: { ...DELIVERY_RECEIPT_DOMAIN },
        primaryType: DELIVERY_RECEIPT_PRIMARY_TYPE,
        types: Object.fromEntries(Object.entries(DELIVERY_RECEIPT_TYPES).map(([name, fields]) => [name, fields.map((f) => ({ ...f }))])),
      },
      document: {
        url: `${base}/api/x402/looksmaxx/{burnTxHash}/receipt`,
        hash: 'keccak256 of the document\'s bytes: {"x402","delivery"} in RFC 8785 canonical JSON; the feedbackHash of ERC-8004 feedback that cites it',
      },
    }
  },
})
