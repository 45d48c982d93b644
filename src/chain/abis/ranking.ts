import { parseAbi } from 'viem'

/** Framemogger, the weekly burner ranking (docs/contributors/contracts.md, Ranking); its top 3 may propose. */
export const rankingAbi = parseAbi([
  'function sendMegachad(uint256 amount)',
  'function canPropose(address account) view returns (bool)',
  'function getCurrentWeek() view returns (uint256)',
  'function getTimeRemaining() view returns (uint256)',
  'function getWeekTop3(uint256 week) view returns (address[3], uint256[3])',
  'function getWeekStats(uint256 week) view returns (uint256 totalSent, uint256 uniqueSenders, uint256 timeRemaining)',
  'function getBurnRequirements(uint256 amount) pure returns (uint256 megagoonerNeeded)',
  'function weeklyUserSent(uint256 week, address account) view returns (uint256)',
  'function totalUserSent(address account) view returns (uint256)',
  'function totalSentAllTime() view returns (uint256)',
  'function totalMegagoonerBurned() view returns (uint256)',
  'function genesisTimestamp() view returns (uint256)',
  'function trenFund() view returns (address)',
  'function WEEK_DURATION() view returns (uint256)',
  'function MEGAGOONER_RATIO() view returns (uint256)',
  'event MegachadSent(address indexed sender, uint256 megachadAmount, uint256 megagoonerBurned, uint256 week)',
  'event TopBurnersUpdated(uint256 indexed week, address[3] top3, uint256[3] amounts)',
])
