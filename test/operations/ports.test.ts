import { test } from 'node:test'
import assert from 'node:assert/strict'
import { operations } from '../../src/operations/index.ts'
import { portsOf } from '../../src/operations/define.ts'
import { getGaslessBurn } from '../../src/operations/gasless/get-gasless-burn.ts'
import type { Chain } from '../../src/chain/clients.ts'
import type { Context } from '../../src/context.ts'

// Issue 11: each handler says which ports of the Context it uses, so a test hands it exactly
// those (no app, no devnet). The type checker proves a list is complete; this proves none is missing.

test('every operation of the registry declares the ports it uses', () => {
  const without = operations.filter((op) => !Array.isArray(op.uses)).map((op) => op.id)
  assert.deepEqual(without, [], 'operations without `uses` get the whole Context')
  for (const op of operations) {
    assert.equal(new Set(op.uses).size, op.uses!.length, `${op.id} names a port twice`)
  }
})

const burner = '0x00000000000000000000000000000000000000b1'
const token = '0x00000000000000000000000000000000000000a1'
const relayer = '0x00000000000000000000000000000000000000a2'

/**
 * The chain port as far as get_gasless_burn reads it: the two addresses, one multicall, and what
 * the simulation of its approve asks (a node without eth_simulateV1, so the eth_call fallback).
 */
const chain = {
  contracts: { token, relayer },
  client: {
    multicall: async () => [0n, 7n, 10n ** 30n],
    request: async () => {
      throw Object.assign(new Error('the method eth_simulateV1 does not exist'), { code: -32601 })
    },
    getBlockNumber: async () => 1n,
    call: async () => ({ data: '0x' }),
    estimateGas: async () => 46_000n,
    getBalance: async () => 10n ** 18n,
    getGasPrice: async () => 1n,
  },
} as unknown as Chain

const meta = { headers: {}, transport: 'http' as const, requestId: 'test' }

test('a handler alone: get_gasless_burn given only its chain and clock signs for a deadline from that clock', async () => {
  assert.deepEqual(getGaslessBurn.uses, ['chain', 'clock'])
  for (const nowMs of [1_700_000_000_000, 1_800_000_123_456]) {
    const answer = (await getGaslessBurn.handler({ chain, clock: () => nowMs }, { address: burner }, meta)) as {
      signTypedData: { message: { burner: string; nonce: string; deadline: number } }
      approval: { status: string }
    }
    assert.deepEqual(answer.signTypedData.message, { burner, nonce: '7', deadline: Math.floor(nowMs / 1000) + 600 })
    assert.equal(answer.approval.status, 'needed')
  }
})

test('at run time a handler is handed its declared ports and nothing else', () => {
  const whole = { chain, clock: () => 0, db: {}, log: {}, config: {}, bus: {} } as unknown as Context
  assert.deepEqual(Object.keys(portsOf(getGaslessBurn, whole)).sort(), ['chain', 'clock'])
})
