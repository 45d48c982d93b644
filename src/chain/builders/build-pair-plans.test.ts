import { test } from 'node:test'
import assert from 'node:assert/strict'
import { decodeFunctionData, erc20Abi, getAddress } from 'viem'
import { buildAddLiquidityPlan, buildPairSwapPlan, pairAmountOut, quotePairSwap, type PairState } from './build-pair-plans.ts'
import { pairAbi } from '../abis/pair.ts'

const E18 = 10n ** 18n
const pair = getAddress('0x1111111111111111111111111111111111111111')
const mc = getAddress('0x2222222222222222222222222222222222222222')
const mg = getAddress('0x3333333333333333333333333333333333333333')
const recipient = getAddress('0x4444444444444444444444444444444444444444')
const state: PairState = { pair, tokenA: mc, tokenB: mg, reserveA: 20_000_000n * E18, reserveB: 2_000_000n * E18, style: 'transfer' }

test('the 0.3 % constant-product formula, minOut at 200 bps by default, price impact without the fee', () => {
  assert.equal(pairAmountOut(1000n, 1000n, 1000n), (1000n * 997n * 1000n) / (1000n * 1000n + 1000n * 997n))
  const quote = quotePairSwap({ amountIn: 10_000n * E18, reserveIn: state.reserveA, reserveOut: state.reserveB })
  assert.equal(quote.amountOut, pairAmountOut(10_000n * E18, state.reserveA, state.reserveB))
  assert.equal(quote.minOut, (quote.amountOut * 9800n) / 10_000n)
  // 10,000 into 20,000,000: the price moves by about in / (reserve + in) ≈ 5 bps.
  assert.equal(quote.priceImpactBps, 5n)
  assert.equal(quotePairSwap({ amountIn: 20_000_000n * E18, reserveIn: state.reserveA, reserveOut: state.reserveB }).priceImpactBps, 4993n)
})

test("a 'transfer'-style pair: transfer the input to the pair, then swap (A in)", () => {
  const result = buildPairSwapPlan({ ...state, tokenIn: mc, amountIn: 1000n * E18, recipient })
  assert.ok(result.ok)
  assert.deepEqual(result.plan.map((s) => [s.to, s.functionName]), [[mc, 'transfer'], [pair, 'swap']])
  assert.deepEqual(decodeFunctionData({ abi: erc20Abi, data: result.plan[0]!.data }).args, [pair, 1000n * E18])
  assert.deepEqual(decodeFunctionData({ abi: pairAbi, data: result.plan[1]!.data }).args, [1000n * E18, 0n, recipient])
  assert.equal(result.quote!.amountOut, pairAmountOut(1000n * E18, state.reserveA, state.reserveB))
})

test("a 'pull'-style pair never gets a transfer first: approve when short, then swap (B in)", () => {
  const short = buildPairSwapPlan({ ...state, style: 'pull', tokenIn: mg, amountIn: 7n * E18, recipient, allowance: 0n })
  assert.ok(short.ok)
  assert.deepEqual(short.plan.map((s) => [s.to, s.functionName]), [[mg, 'approve'], [pair, 'swap']])
  assert.deepEqual(decodeFunctionData({ abi: pairAbi, data: short.plan[1]!.data }).args, [0n, 7n * E18, recipient])
  const enough = buildPairSwapPlan({ ...state, style: 'pull', tokenIn: mg, amountIn: 7n * E18, recipient, allowance: 7n * E18 })
  assert.ok(enough.ok)
  assert.deepEqual(enough.plan.map((s) => s.functionName), ['swap'])
  for (const style of ['transfer', 'pull'] as const) {
    const plan = buildPairSwapPlan({ ...state, style, tokenIn: mg, amountIn: 7n * E18, recipient })
    assert.ok(plan.ok)
    assert.equal(plan.plan.filter((s) => s.functionName === 'transfer').length, style === 'transfer' ? 1 : 0)
  }
})

test('swap refusals: zero amount, foreign token, bad slippage, empty pair, dust', () => {
  const reason = (r: ReturnType<typeof buildPairSwapPlan>) => (r.ok ? 'ok' : r.reason)
  assert.equal(reason(buildPairSwapPlan({ ...state, tokenIn: mc, amountIn: 0n, recipient })), 'invalid_amount')
  assert.equal(reason(buildPairSwapPlan({ ...state, tokenIn: recipient, amountIn: 1n, recipient })), 'unknown_token')
  assert.equal(reason(buildPairSwapPlan({ ...state, tokenIn: mc, amountIn: 1n, recipient, slippageBps: 10_000n })), 'invalid_slippage')
  assert.equal(reason(buildPairSwapPlan({ ...state, reserveA: 0n, tokenIn: mc, amountIn: 1n, recipient })), 'no_liquidity')
  assert.equal(reason(buildPairSwapPlan({ ...state, tokenIn: mc, amountIn: 1n, recipient })), 'zero_output')
})

test('nothing that would revert after the input is sent: a paused protocol, a recipient that cannot receive', () => {
  const reason = (r: { ok: boolean; reason?: string }) => (r.ok ? 'ok' : r.reason)
  const swap = { ...state, tokenIn: mc, amountIn: 1000n * E18, recipient }
  assert.equal(reason(buildPairSwapPlan(swap)), 'ok')
  assert.equal(reason(buildPairSwapPlan({ ...swap, paused: true })), 'paused')
  for (const bad of ['0x0000000000000000000000000000000000000000', pair, mc, mg.toLowerCase()] as `0x${string}`[]) {
    assert.equal(reason(buildPairSwapPlan({ ...swap, recipient: bad })), 'invalid_recipient', bad)
  }
  const liquidity = { pair, tokenA: mc, tokenB: mg, amountA: E18, amountB: E18, recipient }
  assert.equal(reason(buildAddLiquidityPlan(liquidity)), 'ok')
  assert.equal(reason(buildAddLiquidityPlan({ ...liquidity, paused: true })), 'paused')
  assert.equal(reason(buildAddLiquidityPlan({ ...liquidity, recipient: pair })), 'invalid_recipient')
})

test('add liquidity: approve, approve, addLiquidity; approvals skipped when allowances suffice', () => {
  const full = buildAddLiquidityPlan({ pair, tokenA: mc, tokenB: mg, amountA: 10n, amountB: 1n, recipient })
  assert.ok(full.ok)
  assert.deepEqual(full.plan.map((s) => [s.to, s.functionName, s.args]), [
    [mc, 'approve', [pair, '10']],
    [mg, 'approve', [pair, '1']],
    [pair, 'addLiquidity', ['10', '1', recipient]],
  ])
  const partial = buildAddLiquidityPlan({ pair, tokenA: mc, tokenB: mg, amountA: 10n, amountB: 1n, recipient, allowanceA: 10n, allowanceB: 0n })
  assert.ok(partial.ok)
  assert.deepEqual(partial.plan.map((s) => [s.to, s.functionName]), [[mg, 'approve'], [pair, 'addLiquidity']])
  assert.equal(buildAddLiquidityPlan({ pair, tokenA: mc, tokenB: mg, amountA: 0n, amountB: 1n, recipient }).ok, false)
})
