/**
 * Checks the two receipts a paid looksmaxx carries (docs/agents/receipts.md) against the key
 * the service publishes in its agent index and its ERC-8004 registration, with the EIP-712
 * types pinned here (a service cannot change the schema under its clients; a test keeps these
 * equal to what the service serves at /.well-known/receipts.json).
 */
import { getAddress, verifyTypedData, type Hex } from 'viem'
import type { Api } from './api.ts'
import { WalletError } from './wallet.ts'

export const X402_RECEIPT = {
  domain: { name: 'x402 receipt', version: '1', chainId: 1 },
  primaryType: 'Receipt',
  types: {
    Receipt: [
      { name: 'version', type: 'uint256' },
      { name: 'network', type: 'string' },
      { name: 'resourceUrl', type: 'string' },
      { name: 'payer', type: 'string' },
      { name: 'issuedAt', type: 'uint256' },
      { name: 'transaction', type: 'string' },
    ],
  },
} as const

export const DELIVERY_RECEIPT = {
  domain: { name: 'MegaChad delivery receipt', version: '1', chainId: 4326 },
  primaryType: 'DeliveryReceipt',
  types: {
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
  },
} as const

type Signed = { payload: Record<string, any>; signature: Hex }
export type Receipts = { x402: Signed | null; delivery: Signed }

/**
 * The receipt key as the service publishes it: its agent index and its ERC-8004 registration
 * file must name the same address.
 */
export async function publishedReceiptKey(api: Api): Promise<Hex> {
  const [index, registration] = await Promise.all([api.get('/api/agent'), api.get('/.well-known/agent-registration.json')])
  const fromIndex = index.body?.receipts?.signer
  const fromRegistration = registration.body?.receipts?.signer
  if (typeof fromIndex !== 'string' || typeof fromRegistration !== 'string') throw new WalletError('NO_RECEIPT_KEY', 'the service publishes no receipt key (receipts.signer in /api/agent and its ERC-8004 registration)')
  if (getAddress(fromIndex) !== getAddress(fromRegistration)) {
    throw new WalletError('RECEIPT_KEY_MISMATCH', `the agent index names receipt key ${fromIndex} and the ERC-8004 registration ${fromRegistration}`)
  }
  return getAddress(fromIndex)
}

/**
 * Verifies both receipts against the key and against what the caller saw (the result's token,
 * hashes and payer). Returns the lines to print; throws RECEIPT_INVALID naming what failed.
 */
export async function verifyReceipts(receipts: Receipts | undefined, key: Hex, expected: { tokenId: string; burnTxHash: string; devTxHash: string; mintTxHash?: string; payer?: string }): Promise<string[]> {
  const fail = (what: string): never => {
    throw new WalletError('RECEIPT_INVALID', `${what}. The portrait was minted all the same (see its token); the service's receipts for it cannot be relied on.`)
  }
  if (!receipts?.delivery) fail('the answer carries no delivery receipt')
  const delivery = receipts!.delivery
  const deliveryOk = await verifyTypedData({ address: key, ...DELIVERY_RECEIPT, message: delivery.payload as never, signature: delivery.signature }).catch(() => false)
  if (!deliveryOk) fail(`the delivery receipt is not signed by the published receipt key ${key}`)
  const p = delivery.payload
  const same = (a: unknown, b: unknown) => typeof a === 'string' && typeof b === 'string' && a.toLowerCase() === b.toLowerCase()
  if (p.delivery?.tokenId !== expected.tokenId) fail(`the delivery receipt names token ${p.delivery?.tokenId}, the answer ${expected.tokenId}`)
  if (!same(p.burn?.burnTx, expected.burnTxHash) || !same(p.burn?.devTx, expected.devTxHash)) fail('the delivery receipt names other burn transactions')
  if (expected.mintTxHash && !same(p.delivery?.mintTx, expected.mintTxHash)) fail('the delivery receipt names another mint transaction')
  const lines = [`  delivery receipt: verified (signed by ${key}): token #${p.delivery.tokenId}, mint ${p.delivery.mintTx}, burns ${p.burn.burnTx}${p.burn.devTx === p.burn.burnTx ? '' : ` + ${p.burn.devTx}`}`]
  const x402 = receipts!.x402
  if (x402) {
    const x402Ok = await verifyTypedData({ address: key, ...X402_RECEIPT, message: x402.payload as never, signature: x402.signature }).catch(() => false)
    if (!x402Ok) fail(`the x402 receipt is not signed by the published receipt key ${key}`)
    if (expected.payer && !same(x402.payload.payer, expected.payer)) fail(`the x402 receipt names payer ${x402.payload.payer}, not ${expected.payer}`)
    if (!same(x402.payload.transaction, p.payment?.transaction)) fail('the two receipts name different payments')
    lines.unshift(`  x402 receipt:     verified (signed by ${key}): ${x402.payload.resourceUrl} paid by ${x402.payload.payer}, settlement ${x402.payload.transaction}`)
  } else if (expected.payer) {
    fail('the answer of a paid looksmaxx carries no x402 receipt')
  }
  return lines
}
