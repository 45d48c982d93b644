import { test } from 'node:test'
import assert from 'node:assert/strict'
import { callFrameLogs, ETH_TRANSFER_EMITTER, type CallFrame } from './call-frame-logs.ts'

const word = (hex: string) => `0x${hex.replace(/^0x/, '').padStart(64, '0')}`
const TRANSFER = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'
const eth = (from: string, to: string, value: bigint) => ({ address: ETH_TRANSFER_EMITTER, topics: [TRANSFER, word(from), word(to)], data: word(value.toString(16)) })
const log = (address: string, n: number) => ({ address, topics: [word(n.toString(16))], data: '0x' })

test('logs in execution order, ETH movements where they happen; reverted frames and value-less or delegate calls move nothing', () => {
  const frame: CallFrame = {
    type: 'CALL', from: '0xaa', to: '0xbb', value: '0x10',
    logs: [{ ...log('0xbb', 1), position: '0x0' }, { ...log('0xbb', 3), position: '0x2' }, { ...log('0xbb', 4), position: 3 }],
    calls: [
      { type: 'CALL', from: '0xbb', to: '0xcc', value: '0x5', logs: [{ ...log('0xcc', 2), position: 0 }] },
      { type: 'CALL', from: '0xbb', to: '0xdd', value: '0x7', error: 'execution reverted', logs: [{ ...log('0xdd', 99), position: 0 }] },
      { type: 'DELEGATECALL', from: '0xbb', to: '0xee', value: '0x10' },
    ],
  }
  assert.deepEqual(callFrameLogs(frame), [eth('0xaa', '0xbb', 16n), log('0xbb', 1), eth('0xbb', '0xcc', 5n), log('0xcc', 2), log('0xbb', 3), log('0xbb', 4)])
  assert.deepEqual(callFrameLogs({ ...frame, error: 'execution reverted' }), [], 'a reverted transaction leaves no logs')
})
