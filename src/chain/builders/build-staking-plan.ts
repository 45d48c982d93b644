import { erc20Abi } from 'viem'
import { moggerStakingAbi } from '../abis/mogger-staking.ts'
import { jesterStakingAbi } from '../abis/jester-staking.ts'
import { planStep, refuse, type PlanResult, type PlanStep } from './plan.ts'

export type StakingVenue = 'mogger' | 'jester'
export type StakingAction = 'stake' | 'unstake' | 'claim'
export type StakingRefusal = 'invalid_amount' | 'nft_required' | 'insufficient_stake' | 'paused' | 'nothing_to_claim'

export type StakingPlanInput = {
  action: StakingAction
  venue: StakingVenue
  /** mogger: the staking contract and MEGACHAD; jester: the staking contract and the pool's LP token. */
  staking: `0x${string}`
  stakeToken: `0x${string}`
  /** Jester pool id (the MC/MG pool is 0). */
  pid?: bigint
  /** Wei; required for stake and unstake. */
  amount?: bigint
  /** The wallet's allowance of stakeToken to the venue; unknown (no address) means approve. */
  allowance?: bigint
  /** The wallet's NFT count, when known: 0 refuses a stake (the venues revert without an NFT). */
  nftCount?: bigint
  /** Rewards the wallet can claim on this venue, when it is known. */
  earned?: bigint
  /** The circuit breaker pauses the protocol: stake reverts (unstake and claim do not). */
  paused?: boolean
  /** The wallet's current stake, when known: an unstake above it is refused. */
  staked?: bigint
}

/**
 * stake: approve (exactly the amount, only when the allowance is short or unknown), then
 * stake; unstake: one call; claim: claimRewards (the jester venue per pool).
 */
export function buildStakingPlan(input: StakingPlanInput): PlanResult<StakingRefusal> {
  const pid = input.pid ?? 0n
  const call = (functionName: 'stake' | 'unstake' | 'claimRewards', amount?: bigint): PlanStep =>
    input.venue === 'mogger'
      ? planStep({ to: input.staking, abi: moggerStakingAbi, functionName, args: amount === undefined ? [] : [amount] })
      : planStep({ to: input.staking, abi: jesterStakingAbi, functionName, args: amount === undefined ? [pid] : [pid, amount] })

  // With the wallet known: a claim of nothing reverts ("No rewards"), so it is not planned.
  if (input.action === 'claim') return input.earned === 0n ? refuse('nothing_to_claim', 'The wallet has no rewards to claim on this venue yet.') : { ok: true, plan: [call('claimRewards')] }
  const amount = input.amount
  if (amount === undefined || amount <= 0n) return refuse('invalid_amount', `${input.action} needs an amount above zero.`)
  if (input.action === 'unstake') {
    if (input.staked !== undefined && amount > input.staked) return refuse('insufficient_stake', `The wallet has ${input.staked} staked, less than ${amount}: unstake at most ${input.staked}.`)
    return { ok: true, plan: [call('unstake', amount)] }
  }
  if (input.paused) return refuse('paused', 'The protocol is paused (circuit breaker): staking refuses new stakes until it is unpaused (unstake and claim still work); GET /api/defi/safety says when.')
  if (input.nftCount === 0n) return refuse('nft_required', 'Staking needs at least one looksmaxx NFT (no NFT: no staking and no rewards); GET /api/agent/looksmaxx?wallet=<address> plans one.')
  const plan: PlanStep[] = []
  if (input.allowance === undefined || input.allowance < amount) {
    plan.push(planStep({ to: input.stakeToken, abi: erc20Abi, functionName: 'approve', args: [input.staking, amount] }))
  }
  plan.push(call('stake', amount))
  return { ok: true, plan }
}
