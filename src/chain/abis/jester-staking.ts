import { parseAbi } from 'viem'

/**
 * JesterGoonerV3, the "jester" venue (docs/contributors/contracts.md, Staking venues): LP pools sharing one MEGAGOONER
 * budget by allocation points. `rewardRate(pid)` and `periodFinish()` are devnet-only views.
 */
export const jesterStakingAbi = parseAbi([
  'function stake(uint256 pid, uint256 amount)',
  'function unstake(uint256 pid, uint256 amount)',
  'function claimRewards(uint256 pid)',
  'function claimAllRewards()',
  'function refreshEffectiveStake(uint256 pid, address account)',
  'function setAllocPoint(uint256 pid, uint256 newAlloc)',
  'function earned(uint256 pid, address account) view returns (uint256)',
  'function earnedAll(address account) view returns (uint256 total)',
  'function getUserInfo(uint256 pid, address account) view returns (uint256 staked, uint256 effectiveStake, uint256 pendingReward, uint256 multiplier, uint256 nftCount)',
  'function getPoolInfo(uint256 pid) view returns (address lpToken, uint256 allocPoint, uint256 totalStaked, uint256 totalEffectiveStake, uint256 weeklyEmission)',
  'function getGlobalStats() view returns (uint256 currentWeek, uint256 totalWeeklyEmission, uint256 rewardsRemaining, uint256 numPools)',
  'function getNFTMultiplier(address account) view returns (uint256)',
  'function getWeeklyEmission(uint256 week) view returns (uint256)',
  'function getCurrentWeek() view returns (uint256)',
  'function poolInfo(uint256 pid) view returns (address lpToken, uint256 allocPoint, uint256 rewardPerTokenStored, uint256 lastUpdateTime, uint256 totalStaked, uint256 totalEffectiveStake)',
  'function poolLength() view returns (uint256)',
  'function userInfo(uint256 pid, address account) view returns (uint256 staked, uint256 effectiveStake, uint256 rewardPerTokenPaid, uint256 rewards)',
  'function startTime() view returns (uint256)',
  'function totalBudget() view returns (uint256)',
  'function totalAllocPoint() view returns (uint256)',
  'function megagooner() view returns (address)',
  'function nft() view returns (address)',
  'function TOTAL_WEEKS() view returns (uint256)',
  'function WEEK_DURATION() view returns (uint256)',
  'function QUADRATIC_SUM() view returns (uint256)',
  'function rewardRate(uint256 pid) view returns (uint256)',
  'function periodFinish() view returns (uint256)',
  'event Staked(address indexed user, uint256 indexed pid, uint256 amount)',
  'event Unstaked(address indexed user, uint256 indexed pid, uint256 amount)',
  'event RewardsClaimed(address indexed user, uint256 indexed pid, uint256 reward)',
  'event AllocPointUpdated(uint256 indexed pid, uint256 oldAlloc, uint256 newAlloc)',
])
