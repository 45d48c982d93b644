import { erc20Abi, erc721Abi } from 'viem'
import type { Chain } from '../clients.ts'
import { moggerStakingAbi } from '../abis/mogger-staking.ts'
import { jesterStakingAbi } from '../abis/jester-staking.ts'
import { pairAbi } from '../abis/pair.ts'
import { rpcFailed } from '../upstream-error.ts'
import { defiAddress, multicallList, ok, type Call } from './defi-contracts.ts'
import { nftBoost, type NftBoost } from './read-nft-boost.ts'

const WEEK = 604_800n
const TOTAL_WEEKS = 225n
/** The jester pool of the MC/MG LP. */
export const MC_MG_POOL_ID = 0n

export type VenueStats = {
  address: `0x${string}`
  stakeToken: `0x${string}`
  totalStaked: bigint
  totalEffectiveStake: bigint
  currentWeek: bigint
  weeklyEmission: bigint
  /** MG per second this week (weekly emission / 604,800; the recorded contracts have no getter). */
  rewardRate: bigint
  /** startTime + 225 weeks. */
  periodFinish: bigint
  rewardsRemaining: bigint
  /** Yearly rewards valued in MC over effective stake valued in MC, in bps; null without stake or price. */
  aprBps: bigint | null
}

export type VenuePosition = { staked: bigint; effectiveStake: bigint; earned: bigint; multiplierBps: bigint; allowance: bigint }

export type StakingRead = {
  mogger: VenueStats
  jester: VenueStats & { pid: bigint; allocPoint: bigint }
  wallet?: { address: `0x${string}`; boost: NftBoost; mogger: VenuePosition; jester: VenuePosition }
}

/**
 * Both venues' stats (and a wallet's positions) in one multicall, with the pair reserves for
 * the APR: MG is priced in MC from the pair (reserve MC / reserve MG, as the testnet UI does),
 * an LP token is worth 2 × reserve MC / LP supply.
 */
export async function readStaking(chain: Chain, wallet?: `0x${string}`): Promise<StakingRead> {
  const mogger = defiAddress(chain, 'moggerStaking')
  const jester = defiAddress(chain, 'jesterStaking')
  const pair = defiAddress(chain, 'pair')
  const pid = MC_MG_POOL_ID
  try {
    const base: Call[] = [
      { address: mogger, abi: moggerStakingAbi, functionName: 'getGlobalStats' },
      { address: mogger, abi: moggerStakingAbi, functionName: 'startTime' },
      { address: jester, abi: jesterStakingAbi, functionName: 'getGlobalStats' },
      { address: jester, abi: jesterStakingAbi, functionName: 'getPoolInfo', args: [pid] },
      { address: jester, abi: jesterStakingAbi, functionName: 'startTime' },
      { address: pair, abi: pairAbi, functionName: 'tokenA' },
      { address: pair, abi: pairAbi, functionName: 'getReserves' },
      { address: pair, abi: pairAbi, functionName: 'totalSupply' },
    ]
    const perWallet: Call[] = wallet
      ? ([
          { address: mogger, abi: moggerStakingAbi, functionName: 'getStakerInfo', args: [wallet] },
          { address: jester, abi: jesterStakingAbi, functionName: 'getUserInfo', args: [pid, wallet] },
          { address: chain.contracts.token, abi: erc20Abi, functionName: 'allowance', args: [wallet, mogger] },
          { address: pair, abi: erc20Abi, functionName: 'allowance', args: [wallet, jester] },
          { address: chain.contracts.nft, abi: erc721Abi, functionName: 'balanceOf', args: [wallet] },
        ])
      : []
    const results = (await multicallList(chain, [...base, ...perWallet])).map((r) => ok<unknown>(r))
    const [mStats, mStart, jStats, pool, jStart, tokenA, reserves, lpSupply] = results as [
      readonly [bigint, bigint, bigint, bigint, bigint], bigint, readonly [bigint, bigint, bigint, bigint], readonly [`0x${string}`, bigint, bigint, bigint, bigint], bigint, `0x${string}`, readonly [bigint, bigint], bigint,
    ]
    const aIsMc = tokenA.toLowerCase() === chain.contracts.token.toLowerCase()
    const [reserveMc, reserveMg] = aIsMc ? reserves : [reserves[1], reserves[0]]
    // APR in bps = yearly MG × (MC per MG) / (stake in MC) × 10000.
    const apr = (weekly: bigint, stakeInMcNum: bigint, stakeInMcDen: bigint): bigint | null =>
      reserveMg === 0n || stakeInMcNum === 0n ? null : (weekly * 52n * reserveMc * stakeInMcDen * 10_000n) / (reserveMg * stakeInMcNum)
    const moggerStats: VenueStats = {
      address: mogger, stakeToken: chain.contracts.token,
      totalStaked: mStats[0], totalEffectiveStake: mStats[1], currentWeek: mStats[2], weeklyEmission: mStats[3],
      rewardRate: mStats[3] / WEEK, periodFinish: mStart + TOTAL_WEEKS * WEEK, rewardsRemaining: mStats[4],
      aprBps: apr(mStats[3], mStats[1], 1n),
    }
    const jesterStats: StakingRead['jester'] = {
      address: jester, stakeToken: pool[0], pid, allocPoint: pool[1],
      totalStaked: pool[2], totalEffectiveStake: pool[3], currentWeek: jStats[0], weeklyEmission: pool[4],
      rewardRate: pool[4] / WEEK, periodFinish: jStart + TOTAL_WEEKS * WEEK, rewardsRemaining: jStats[2],
      // effective LP × (2 × reserve MC / LP supply) MC
      aprBps: lpSupply === 0n ? null : apr(pool[4], pool[3] * 2n * reserveMc, lpSupply),
    }
    if (!wallet) return { mogger: moggerStats, jester: jesterStats }
    const [staker, user, moggerAllowance, jesterAllowance, nftCount] = results.slice(base.length) as [
      readonly [bigint, bigint, bigint, bigint, bigint], readonly [bigint, bigint, bigint, bigint, bigint], bigint, bigint, bigint,
    ]
    const position = (info: readonly [bigint, bigint, bigint, bigint, bigint], allowance: bigint): VenuePosition => ({
      staked: info[0], effectiveStake: info[1], earned: info[2], multiplierBps: info[3], allowance,
    })
    return {
      mogger: moggerStats,
      jester: jesterStats,
      wallet: { address: wallet, boost: nftBoost(nftCount), mogger: position(staker, moggerAllowance), jester: position(user, jesterAllowance) },
    }
  } catch (cause) {
    throw rpcFailed('reading the staking venues', cause)
  }
}
