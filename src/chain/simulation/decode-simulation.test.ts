import { test } from 'node:test'
import assert from 'node:assert/strict'
import { encodeAbiParameters, encodeErrorResult, parseAbi, parseEther, type Address } from 'viem'
import { decodeMovements, decodeRevertReason, decodeSimulatedSteps, ETH_PSEUDO_TOKEN, summarizeSimulation, type SimulationCall } from './decode-simulation.ts'

const A = '0x1111111111111111111111111111111111111111' as Address
const B = '0x2222222222222222222222222222222222222222' as Address
const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3' as Address
const TRANSFER = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'
const topic = (a: string) => `0x${a.slice(2).toLowerCase().padStart(64, '0')}`
const amount = (v: bigint) => encodeAbiParameters([{ type: 'uint256' }], [v])

test('a revert reads as its reason string, its panic, or its custom error with named arguments', () => {
  const errors = parseAbi(['error Error(string)', 'error Panic(uint256)', 'error ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed)'])
  assert.equal(decodeRevertReason(encodeErrorResult({ abi: errors, errorName: 'Error', args: ['No voting power'] })), 'No voting power')
  assert.equal(decodeRevertReason(encodeErrorResult({ abi: errors, errorName: 'Panic', args: [0x11n] })), 'panic 0x11 (arithmetic overflow or underflow)')
  assert.equal(
    decodeRevertReason(encodeErrorResult({ abi: errors, errorName: 'ERC20InsufficientBalance', args: [A, 0n, 5n] })),
    `ERC20InsufficientBalance(sender: ${A}, balance: 0, needed: 5)`,
  )
  assert.equal(decodeRevertReason('0xdeadbeef00'), 'custom error 0xdeadbeef', 'an unknown error by its selector')
  assert.equal(decodeRevertReason('0x', 'execution reverted'), 'reverted without a reason')
  assert.equal(decodeRevertReason(undefined, 'out of gas'), 'out of gas', 'no data: the node\'s message')
})

test('movements: ERC-20 Transfer logs and eth_simulateV1\'s ETH transfers; an ERC-721 Transfer (4 topics) and other events are not movements', () => {
  const logs = [
    { address: ETH_PSEUDO_TOKEN.toLowerCase(), topics: [TRANSFER, topic(A), topic(B)], data: amount(parseEther('0.5')) },
    { address: TOKEN.toLowerCase(), topics: [TRANSFER, topic(B), topic(A)], data: amount(7n) },
    { address: TOKEN.toLowerCase(), topics: [TRANSFER, topic(A), topic(B), topic('0x05')], data: '0x' },
    { address: TOKEN.toLowerCase(), topics: ['0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925', topic(A), topic(B)], data: amount(1n) },
  ]
  assert.deepEqual(decodeMovements(logs, { [TOKEN.toLowerCase()]: 'MEGACHAD' }), [
    { kind: 'eth', token: ETH_PSEUDO_TOKEN, symbol: 'ETH', from: A, to: B, amount: parseEther('0.5') },
    { kind: 'erc20', token: TOKEN, symbol: 'MEGACHAD', from: B, to: A, amount: 7n },
  ])
})

const calls: SimulationCall[] = [
  { to: TOKEN, data: '0x095ea7b3', value: 0n, functionName: 'approve' },
  { to: B, data: '0xa694fc3a', value: parseEther('1'), functionName: 'stake' },
]

test('steps: success with gas and movements, a revert with its decoded reason, numbered as the plan numbers them', () => {
  const revert = encodeErrorResult({ abi: parseAbi(['error Error(string)']), errorName: 'Error', args: ['No NFT'] })
  const steps = decodeSimulatedSteps(
    calls.map((c, i) => ({ ...c, step: i + 2 })),
    [
      { status: '0x1', gasUsed: '0xb5d4', logs: [{ address: TOKEN, topics: [TRANSFER, topic(A), topic(B)], data: amount(3n) }] },
      { status: '0x0', gasUsed: '0x5f90', returnData: revert, logs: [], error: { code: 3, message: 'execution reverted', data: revert } },
    ],
    {},
  )
  assert.deepEqual(steps, [
    { step: 2, to: TOKEN, functionName: 'approve', ok: true, revertReason: null, revertData: null, gasUsed: 46548n, movements: [{ kind: 'erc20', token: TOKEN, symbol: null, from: A, to: B, amount: 3n }] },
    { step: 3, to: B, functionName: 'stake', ok: false, revertReason: 'No NFT', revertData: revert, gasUsed: 24464n, movements: [] },
  ])
})

test('verdict: the first failing step; else the ETH for value and gas; else executable; a partial simulation is not a verdict', () => {
  const ok = (gasUsed: bigint) => ({ ok: true, revertReason: null, revertData: null, gasUsed, movements: [] })
  const base = { method: 'eth_simulateV1' as const, block: 10n, from: A, calls, gasPrice: 10n ** 9n }
  const steps = [{ step: 1, to: TOKEN, functionName: 'approve', ...ok(50_000n) }, { step: 2, to: B, functionName: 'stake', ...ok(100_000n) }]

  const fine = summarizeSimulation({ ...base, steps, balance: parseEther('2') })
  assert.deepEqual([fine.executable, fine.reason, fine.gasUsed, fine.fee, fine.value], [true, null, 150_000n, 150_000n * 10n ** 9n, parseEther('1')])

  const poor = summarizeSimulation({ ...base, steps, balance: parseEther('1') })
  assert.equal(poor.executable, false)
  assert.equal(poor.failedStep, null)
  assert.equal(poor.reason, 'The wallet holds 1 ETH; the plan needs at least 1.00015 ETH (1 ETH sent with the steps + 0.00015 ETH of gas at 1 gwei).')

  const reverting = summarizeSimulation({ ...base, balance: parseEther('2'), steps: [steps[0]!, { ...steps[1]!, ok: false, revertReason: 'No NFT' }] })
  assert.deepEqual([reverting.executable, reverting.failedStep, reverting.reason], [false, 2, 'Step 2 (stake) would revert: No NFT.'])

  const refused = summarizeSimulation({ ...base, balance: 0n, steps: [{ ...steps[0]!, ok: false, gasUsed: null, revertReason: "the wallet's ETH does not cover the 1 ETH this step sends" }, { ...steps[1]!, ok: null, gasUsed: null }] })
  assert.equal(refused.reason, "Step 1 (approve) cannot be sent: the wallet's ETH does not cover the 1 ETH this step sends.")

  const partial = summarizeSimulation({ ...base, method: 'eth_call', balance: parseEther('2'), steps: [steps[0]!, { ...steps[1]!, ok: null, gasUsed: null }] })
  assert.equal(partial.executable, null)
  assert.match(partial.reason!, /^Only the first step was simulated .* step 2 \(stake\) and later are unchecked\.$/)
})
