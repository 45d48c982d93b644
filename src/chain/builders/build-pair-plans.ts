import { erc20Abi, formatUnits, zeroAddress } from 'viem'
import { pairAbi } from '../abis/pair.ts'
import { planStep, refuse, type PlanResult, type PlanStep } from './plan.ts'

/** Default slippage of the pair swap builder, in bps (the spec's slippageBps default). */
export const PAIR_SLIPPAGE_BPS = 200n
const FEE_NUMERATOR = 997n
const FEE_DENOMINATOR = 1000n

/**
 * How the configured pair takes its input. 'transfer': it credits tokens transferred to it
 * before `swap` (the devnet pair, and the spec's plan). 'pull': it pulls the input with
 * transferFrom (the recorded MegaChadLP, docs/contributors/contracts.md, Pair); there a transfer first would be lost.
 */
export type PairInputStyle = 'transfer' | 'pull'

export type PairState = {
  pair: `0x${string}`
  tokenA: `0x${string}`
  tokenB: `0x${string}`
  reserveA: bigint
  reserveB: bigint
  style: PairInputStyle
}

/** The pair's output for an input: in·997·rOut / (rIn·1000 + in·997), rounded down. */
export function pairAmountOut(amountIn: bigint, reserveIn: bigint, reserveOut: bigint): bigint {
  if (amountIn <= 0n || reserveIn <= 0n || reserveOut <= 0n) return 0n
  const inWithFee = amountIn * FEE_NUMERATOR
  return (inWithFee * reserveOut) / (reserveIn * FEE_DENOMINATOR + inWithFee)
}

/** The smallest input the pair pays at least one unit for (0 when it cannot pay anything). */
export function pairMinAmountIn(reserveIn: bigint, reserveOut: bigint): bigint {
  if (reserveIn <= 0n || reserveOut <= 1n) return 0n
  // in·997·rOut ≥ rIn·1000 + in·997  ⇔  in ≥ rIn·1000 / (997·(rOut − 1))
  const denominator = FEE_NUMERATOR * (reserveOut - 1n)
  return (reserveIn * FEE_DENOMINATOR + denominator - 1n) / denominator
}

/**
 * Expected output, minimum output after slippage, and price impact in bps: how far the
 * execution price falls below the spot price after the 0.3 % fee (so the fee itself is not
 * counted as impact), rounded up.
 */
export function quotePairSwap(args: { amountIn: bigint; reserveIn: bigint; reserveOut: bigint; slippageBps?: bigint }) {
  const slippageBps = args.slippageBps ?? PAIR_SLIPPAGE_BPS
  const amountOut = pairAmountOut(args.amountIn, args.reserveIn, args.reserveOut)
  const minOut = (amountOut * (10_000n - slippageBps)) / 10_000n
  const idealOut = args.reserveIn > 0n ? (args.amountIn * FEE_NUMERATOR * args.reserveOut) / (args.reserveIn * FEE_DENOMINATOR) : 0n
  const priceImpactBps = idealOut === 0n ? 0n : ((idealOut - amountOut) * 10_000n + idealOut - 1n) / idealOut
  return { amountOut, minOut, priceImpactBps, slippageBps }
}

export type SwapRefusal = 'invalid_amount' | 'invalid_slippage' | 'unknown_token' | 'no_liquidity' | 'zero_output' | 'paused' | 'invalid_recipient'

/**
 * A swap of `amountIn` of `tokenIn` on the pair, output to `recipient`. The plan depends on
 * the pair's input style so that it never loses tokens: 'transfer' → transfer the input to the
 * pair, then swap (the spec's two-step plan); 'pull' → approve the pair when the allowance is
 * short or unknown, then swap. The pair has no minimum-output argument: minOut is for the
 * caller to check (the devnet and the recorded pair both pay the computed output).
 */
export function buildPairSwapPlan(
  input: PairState & { tokenIn: `0x${string}`; amountIn: bigint; recipient: `0x${string}`; slippageBps?: bigint; allowance?: bigint; paused?: boolean },
): PlanResult<SwapRefusal> & { quote?: ReturnType<typeof quotePairSwap> } {
  const slippageBps = input.slippageBps ?? PAIR_SLIPPAGE_BPS
  if (input.amountIn <= 0n) return refuse('invalid_amount', 'The swap needs an amount above zero.')
  // With a transfer-style pair the input is sent before the swap: a swap that then reverts
  // leaves it in the pair for anyone to take. So nothing is planned that would revert.
  if (!canReceive(input.recipient, input)) return refuse('invalid_recipient', `${input.recipient} cannot receive the output (the zero address, the pair or one of its tokens).`)
  if (input.paused) return refuse('paused', 'The protocol is paused (circuit breaker): the pair refuses swaps until it is unpaused; GET /api/defi/safety says when.')
  if (slippageBps < 0n || slippageBps >= 10_000n) return refuse('invalid_slippage', 'slippageBps must be between 0 and 9999.')
  const aIn = input.tokenIn.toLowerCase() === input.tokenA.toLowerCase()
  if (!aIn && input.tokenIn.toLowerCase() !== input.tokenB.toLowerCase()) return refuse('unknown_token', `${input.tokenIn} is neither token of the pair.`)
  const [reserveIn, reserveOut] = aIn ? [input.reserveA, input.reserveB] : [input.reserveB, input.reserveA]
  if (reserveIn === 0n || reserveOut === 0n) return refuse('no_liquidity', 'The pair has no liquidity.')
  const quote = quotePairSwap({ amountIn: input.amountIn, reserveIn, reserveOut, slippageBps })
  if (quote.amountOut === 0n) {
    const least = pairMinAmountIn(reserveIn, reserveOut)
    return refuse('zero_output', `The amount is too small: the pair would pay nothing. Send at least ${formatUnits(least, 18)} tokens (${least} wei).`)
  }
  const plan: PlanStep[] = []
  if (input.style === 'transfer') {
    plan.push(planStep({ to: input.tokenIn, abi: erc20Abi, functionName: 'transfer', args: [input.pair, input.amountIn] }))
  } else if (input.allowance === undefined || input.allowance < input.amountIn) {
    plan.push(planStep({ to: input.tokenIn, abi: erc20Abi, functionName: 'approve', args: [input.pair, input.amountIn] }))
  }
  plan.push(planStep({ to: input.pair, abi: pairAbi, functionName: 'swap', args: aIn ? [input.amountIn, 0n, input.recipient] : [0n, input.amountIn, input.recipient] }))
  return { ok: true, plan, quote }
}

/**
 * approve tokenA, approve tokenB (each only when the allowance is short or unknown), then
 * addLiquidity(amountA, amountB, recipient). Both pair styles pull liquidity with transferFrom.
 */
export function buildAddLiquidityPlan(input: {
  pair: `0x${string}`
  tokenA: `0x${string}`
  tokenB: `0x${string}`
  amountA: bigint
  amountB: bigint
  recipient: `0x${string}`
  allowanceA?: bigint
  allowanceB?: bigint
  paused?: boolean
}): PlanResult<'invalid_amount' | 'paused' | 'invalid_recipient'> {
  if (input.amountA <= 0n || input.amountB <= 0n) return refuse('invalid_amount', 'Both amounts must be above zero.')
  if (!canReceive(input.recipient, input)) return refuse('invalid_recipient', `${input.recipient} cannot receive the LP tokens (the zero address, the pair or one of its tokens).`)
  if (input.paused) return refuse('paused', 'The protocol is paused (circuit breaker): the pair refuses liquidity until it is unpaused; GET /api/defi/safety says when.')
  const plan: PlanStep[] = []
  if (input.allowanceA === undefined || input.allowanceA < input.amountA) plan.push(planStep({ to: input.tokenA, abi: erc20Abi, functionName: 'approve', args: [input.pair, input.amountA] }))
  if (input.allowanceB === undefined || input.allowanceB < input.amountB) plan.push(planStep({ to: input.tokenB, abi: erc20Abi, functionName: 'approve', args: [input.pair, input.amountB] }))
  plan.push(planStep({ to: input.pair, abi: pairAbi, functionName: 'addLiquidity', args: [input.amountA, input.amountB, input.recipient] }))
  return { ok: true, plan }
}

/** Not the zero address, the pair or one of its tokens: those would burn or strand what they receive. */
function canReceive(recipient: `0x${string}`, pair: { pair: `0x${string}`; tokenA: `0x${string}`; tokenB: `0x${string}` }): boolean {
  const r = recipient.toLowerCase()
  return ![zeroAddress, pair.pair, pair.tokenA, pair.tokenB].some((a) => a.toLowerCase() === r)
}
