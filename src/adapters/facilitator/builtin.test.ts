import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createBuiltinFacilitator } from './builtin.ts'
import type { Chain } from '../../chain/clients.ts'
import type { TxSender } from '../../chain/sender/tx-sender.ts'
import type { CompletePaymentPayload } from '../../x402/payload.ts'
import type { PaymentRequirements } from '../../x402/requirements.ts'

const SENDER = '0x00000000000000000000000000000000000000aa' as const
const payment = {
  x402Version: 1,
  scheme: 'exact',
  network: 'megaeth',
  payload: {
    signature: `0x${'11'.repeat(32)}${'22'.repeat(32)}1b`,
    authorization: { from: `0x${'01'.repeat(20)}`, to: `0x${'02'.repeat(20)}`, value: '1000000', validAfter: '0', validBefore: '9999999999', nonce: `0x${'03'.repeat(32)}` },
  },
} as unknown as CompletePaymentPayload
const requirements = { network: 'megaeth', asset: `0x${'04'.repeat(20)}`, payTo: `0x${'02'.repeat(20)}`, maxAmountRequired: '1000000' } as unknown as PaymentRequirements

/** A chain whose every read is counted and fails: a settlement that reads it does not get to send. */
function setUp() {
  const reads: string[] = []
  const refuse = (name: string) => async () => {
    reads.push(name)
    throw new Error('no chain here')
  }
  const chain = { contracts: { usdm: `0x${'05'.repeat(20)}` }, client: { multicall: refuse('multicall'), call: refuse('call') } } as unknown as Chain
  const sent: string[] = []
  const sender = {
    address: SENDER,
    async sendAndWait(request: { key: string }) {
      sent.push(request.key)
      return { status: 'mined', txHash: `0x${'06'.repeat(32)}` }
    },
    find: async () => undefined,
  } as unknown as TxSender
  return { facilitator: createBuiltinFacilitator({ chain, sender }), reads, sent }
}

test('a payment the caller verified and simulated from this sender just now is sent without reading the chain again', async () => {
  const { facilitator, reads, sent } = setUp()
  const result = await facilitator.settle(payment, requirements, { checked: { atMs: Date.now(), simulatedFrom: SENDER } })
  assert.equal(result.success, true)
  assert.deepEqual(reads, [])
  assert.equal(sent.length, 1)
})

test('a stale check, a check simulated from another address, or none: the payment is verified again before anything is sent', async () => {
  for (const checked of [{ atMs: Date.now() - 60_000, simulatedFrom: SENDER }, { atMs: Date.now(), simulatedFrom: `0x${'bb'.repeat(20)}` as const }, undefined]) {
    const { facilitator, reads, sent } = setUp()
    await assert.rejects(facilitator.settle(payment, requirements, { checked }))
    assert.ok(reads.length > 0, JSON.stringify(checked))
    assert.deepEqual(sent, [])
  }
})
