import { parseAbi } from 'viem'

/** EmissionController (docs/contributors/contracts.md, Emission controller): 225 weeks of quadratic decay, split mogger/jester/treasury in bps. */
export const emissionControllerAbi = parseAbi([
  'function distributeEmissions()',
  'function getCurrentWeek() view returns (uint256)',
  'function calculateWeeklyEmission(uint256 week) pure returns (uint256)',
  'function getCurrentSplit() view returns (uint256 staking, uint256 lp, uint256 treasury_)',
  'function getProjectedEmissions(uint256 weeksAhead) view returns (uint256[] amounts)',
  'function startTime() view returns (uint256)',
  'function totalDistributed() view returns (uint256)',
  'function weekDistributed(uint256 week) view returns (bool)',
  'function stakingContract() view returns (address)',
  'function lpStakingContract() view returns (address)',
  'function treasury() view returns (address)',
  'function TOTAL_WEEKS() view returns (uint256)',
  'function WEEK_DURATION() view returns (uint256)',
  'function BASE_WEEKLY_EMISSION() view returns (uint256)',
  'event EmissionDistributed(uint256 indexed week, uint256 total, uint256 toStaking, uint256 toLp, uint256 toTreasury)',
])
