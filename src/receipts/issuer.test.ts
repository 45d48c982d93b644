import { test } from 'node:test'
import assert from 'node:assert/strict'
import { getAddress } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { verifyOfferSignatureEIP712, verifyReceiptSignatureEIP712 } from '@x402/extensions/offer-receipt'
import { createReceiptIssuer } from './issuer.ts'
import { recoverDeliveryReceiptSigner } from './delivery-receipt.ts'

const account = privateKeyToAccount(`0x${'42'.repeat(32)}`)
const hash = (n: string) => `0x${n.repeat(64)}` as `0x${string}`
const address = (n: string) => getAddress(`0x${n.toLowerCase().repeat(40)}`)
const facts = {
  x402: { network: 'eip155:4326', resourceUrl: 'https://svc.example/api/x402/looksmaxx', payer: address('A'), transaction: hash('1'), issuedAt: 1_732_712_345 },
  delivery: {
    source: 'x402-agent',
    payment: { network: 'eip155:4326', transaction: hash('1'), asset: address('B'), amount: 10n ** 18n, payer: address('A'), payTo: address('C') },
    burn: { burner: address('A'), token: address('D'), burnTx: hash('2'), devTx: hash('3'), amount: 225_000n * 10n ** 18n },
    delivery: { nft: address('E'), tokenId: 7n, recipient: address('A'), imageCid: 'bafyimage', metadataCid: 'bafymeta', mintTx: hash('4') },
    issuedAt: 1_732_712_345,
  },
}

test('the same facts give the same receipts, signed by the issuer\'s key, from two issuers of the same key', async () => {
  const first = await createReceiptIssuer(account).receipts(facts)
  const second = await createReceiptIssuer(account).receipts(structuredClone(facts))
  assert.deepEqual(first, second, 'deterministic: RFC 6979 signatures over a pure function of the facts')
  assert.equal(await recoverDeliveryReceiptSigner(first.delivery), account.address)
  assert.equal((await verifyReceiptSignatureEIP712(first.x402!)).signer, account.address)
  assert.equal(first.delivery.payload.delivery.metadataUri, 'ipfs://bafymeta')
  const unpaid = await createReceiptIssuer(account).receipts({ delivery: { ...facts.delivery, source: 'burn-to-create', payment: undefined } })
  assert.equal(unpaid.x402, null)
  assert.equal(unpaid.delivery.payload.payment.amount, '0')
})

test('offers are signed per accepts entry and reused while most of their validity is left', async () => {
  let now = 1_000_000_000_000
  const issuer = createReceiptIssuer(account, () => now)
  const accepts = [{ scheme: 'exact', network: 'eip155:4326', asset: address('B'), payTo: address('C'), amount: '1000000000000000000', maxTimeoutSeconds: 300 }]
  const first = await issuer.offers('https://svc.example/api/x402/looksmaxx', accepts)
  const [offer] = first.info.offers as never[]
  const { signer, payload } = await verifyOfferSignatureEIP712(offer)
  assert.equal(signer, account.address)
  assert.equal(payload.amount, accepts[0]!.amount)
  assert.equal(await issuer.offers('https://svc.example/api/x402/looksmaxx', accepts), first)
  now += 200_000
  assert.notEqual(await issuer.offers('https://svc.example/api/x402/looksmaxx', accepts), first, 'a fresh offer past half its validity')
})
