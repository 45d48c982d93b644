import { hashTypedData, recoverTypedDataAddress, zeroAddress, zeroHash } from 'viem'
import { CHAIN_ID } from '../chain/constants.ts'

/**
 * The service's delivery receipt: one EIP-712 statement, signed by the receipt key, that binds
 * what was paid (the x402 settlement), what was burned (both transfers) and what was delivered
 * (the minted token, its image and metadata, the mint transaction). The domain and types are
 * fixed (domain version 1); they are published at /.well-known/receipts.json and in
 * docs/agents/receipts.md, and not sent with each receipt, as x402's offer-receipt does.
 */
export const DELIVERY_RECEIPT_DOMAIN = { name: 'MegaChad delivery receipt', version: '1', chainId: CHAIN_ID } as const

export const DELIVERY_RECEIPT_TYPES = {
  DeliveryReceipt: [
    { name: 'source', type: 'string' },
    { name: 'payment', type: 'Payment' },
    { name: 'burn', type: 'Burn' },
    { name: 'delivery', type: 'Delivery' },
    { name: 'issuedAt', type: 'uint256' },
  ],
  Payment: [
    { name: 'network', type: 'string' },
    { name: 'transaction', type: 'bytes32' },
    { name: 'asset', type: 'address' },
    { name: 'amount', type: 'uint256' },
    { name: 'payer', type: 'address' },
    { name: 'payTo', type: 'address' },
  ],
  Burn: [
    { name: 'burner', type: 'address' },
    { name: 'token', type: 'address' },
    { name: 'burnTx', type: 'bytes32' },
    { name: 'devTx', type: 'bytes32' },
    { name: 'amount', type: 'uint256' },
  ],
  Delivery: [
    { name: 'nft', type: 'address' },
    { name: 'tokenId', type: 'uint256' },
    { name: 'recipient', type: 'address' },
    { name: 'imageCid', type: 'string' },
    { name: 'metadataUri', type: 'string' },
    { name: 'mintTx', type: 'bytes32' },
  ],
} as const

export const DELIVERY_RECEIPT_PRIMARY_TYPE = 'DeliveryReceipt' as const

type Hex = `0x${string}`

/**
 * The message of a delivery receipt as it travels in JSON: amounts and the token id as decimal
 * strings, issuedAt in Unix seconds. viem hashes it as it is (decimal strings are uint256).
 */
export type DeliveryReceiptPayload = {
  source: string
  payment: { network: string; transaction: Hex; asset: Hex; amount: string; payer: Hex; payTo: Hex }
  burn: { burner: Hex; token: Hex; burnTx: Hex; devTx: Hex; amount: string }
  delivery: { nft: Hex; tokenId: string; recipient: Hex; imageCid: string; metadataUri: string; mintTx: Hex }
  issuedAt: number
}

export type SignedDeliveryReceipt = {
  format: 'eip712'
  domain: typeof DELIVERY_RECEIPT_DOMAIN
  primaryType: typeof DELIVERY_RECEIPT_PRIMARY_TYPE
  payload: DeliveryReceiptPayload
  signature: Hex
}

/** What a minted portrait's receipt states, from the submission's stored facts. */
export type DeliveryFacts = {
  source: string
  /** Absent for a burn-to-create portrait (no x402 fee): the payment fields are then zero. */
  payment?: { network: string; transaction: Hex; asset: Hex; amount: bigint; payer: Hex; payTo: Hex }
  burn: { burner: Hex; token: Hex; burnTx: Hex; devTx: Hex; amount: bigint }
  delivery: { nft: Hex; tokenId: bigint; recipient: Hex; imageCid: string; metadataCid: string; mintTx: Hex }
  issuedAt: number
}

/** The receipt's message: a pure function of the facts, so every read of a portrait signs the same bytes. */
export function deliveryReceiptPayload(facts: DeliveryFacts): DeliveryReceiptPayload {
  const p = facts.payment
  return {
    source: facts.source,
    payment: p
      ? { network: p.network, transaction: p.transaction, asset: p.asset, amount: p.amount.toString(), payer: p.payer, payTo: p.payTo }
      : { network: '', transaction: zeroHash, asset: zeroAddress, amount: '0', payer: zeroAddress, payTo: zeroAddress },
    burn: { ...facts.burn, amount: facts.burn.amount.toString() },
    delivery: {
      nft: facts.delivery.nft,
      tokenId: facts.delivery.tokenId.toString(),
      recipient: facts.delivery.recipient,
      imageCid: facts.delivery.imageCid,
      metadataUri: `ipfs://${facts.delivery.metadataCid}`,
      mintTx: facts.delivery.mintTx,
    },
    issuedAt: facts.issuedAt,
  }
}

/** The EIP-712 typed data of a payload, as viem's signTypedData, hashTypedData and verifyTypedData take it. */
export function deliveryReceiptTypedData(payload: DeliveryReceiptPayload) {
  // viem types uint256 fields as bigint; it hashes decimal strings the same (the JSON form is the signed form).
  return { domain: DELIVERY_RECEIPT_DOMAIN, types: DELIVERY_RECEIPT_TYPES, primaryType: DELIVERY_RECEIPT_PRIMARY_TYPE, message: payload as never }
}

/** The digest the signature covers. */
export function hashDeliveryReceipt(payload: DeliveryReceiptPayload): Hex {
  return hashTypedData(deliveryReceiptTypedData(payload))
}

/** The address that signed a delivery receipt (compare it with the published receipt signer). */
export async function recoverDeliveryReceiptSigner(receipt: Pick<SignedDeliveryReceipt, 'payload' | 'signature'>): Promise<Hex> {
  return recoverTypedDataAddress({ ...deliveryReceiptTypedData(receipt.payload), signature: receipt.signature })
}
