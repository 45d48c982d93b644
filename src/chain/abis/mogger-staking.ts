import { parseAbi } from 'viem'

/**
 * MoggerStakingV2, the "mogger" venue (docs/contributors/contracts.md, Staking venues): stake MEGACHAD, earn MEGAGOONER.
 * `rewardRate()` and `periodFinish()` exist on the devnet contract only; on the recorded
 * contract they are derived (weekly emission / 604,800 and startTime + 225 weeks).
 */
export const moggerStakingAbi = parseAbi([
  'function stake(uint256 amount)',
  'function unstake(uint256 amount)',
  'function claimRewards()',
  'function refreshEffectiveStake(address account)',
  'function earned(address account) view returns (uint256)',
  'function getStakerInfo(address account) view returns (uint256 staked, uint256 effectiveStake, uint256 pendingReward, uint256 multiplier, uint256 nftCount)',
  'function getGlobalStats() view returns (uint256 _totalStaked, uint256 _totalEffectiveStake, uint256 currentWeek, uint256 weeklyEmission, uint256 rewardsRemaining)',
  'function getNFTMultiplier(address account) view returns (uint256)',
  'function getWeeklyEmission(uint256 week) view returns (uint256)',
  'function getCurrentWeek() view returns (uint256)',
  'function stakers(address account) view returns (uint256 staked, uint256 effectiveStake, uint256 rewardPerTokenPaid, uint256 rewards)',
  'function startTime() view returns (uint256)',
  'function totalBudget() view returns (uint256)',
  'function totalStaked() view returns (uint256)',
  'function totalEffectiveStake() view returns (uint256)',
  'function megachad() view returns (address)',
  'function megagooner() view returns (address)',
  'function nft() view returns (address)',
  'function TOTAL_WEEKS() view returns (uint256)',
  'function WEEK_DURATION() view returns (uint256)',
  'function QUADRATIC_SUM() view returns (uint256)',
  'function rewardRate() view returns (uint256)',
  'function periodFinish() view returns (uint256)',
  'event Staked(address indexed user, uint256 amount)',
  'event Unstaked(address indexed user, uint256 amount)',
  'event RewardsClaimed(address indexed user, uint256 reward)',
])
