import { parseAbi } from 'viem'

/** CircuitBreaker (docs/contributors/contracts.md, Circuit breaker): 5 guardians, 3 votes pause, 4 unpause, auto-unpause after 7 days. */
export const circuitBreakerAbi = parseAbi([
  'function votePause(bool support)',
  'function voteUnpause(bool support)',
  'function autoUnpause()',
  'function emergencyUnpause()',
  'function isPaused() view returns (bool)',
  'function getPauseStatus() view returns (bool isPaused_, uint256 pausedAt_, uint256 autoUnpauseTime, uint256 pauseYesVotes_, uint256 pauseNoVotes_, uint256 unpauseYesVotes_, uint256 unpauseNoVotes_)',
  'function getGuardians() view returns (address[5])',
  'function checkGuardianStatus(address account) view returns (bool)',
  'function hasVotedPause(address account) view returns (bool)',
  'function hasVotedUnpause(address account) view returns (bool)',
  'function timeUntilAutoUnpause() view returns (uint256)',
  'function AUTO_UNPAUSE_DURATION() view returns (uint256)',
  'function PAUSE_THRESHOLD() view returns (uint256)',
  'function UNPAUSE_THRESHOLD() view returns (uint256)',
  'event ProtocolPaused(address indexed guardian, uint256 timestamp)',
  'event ProtocolUnpaused(address indexed by, uint256 timestamp)',
  'event PauseVoteCast(address indexed guardian, bool support)',
  'event UnpauseVoteCast(address indexed guardian, bool support)',
  'event AutoUnpauseExecuted(uint256 timestamp)',
])
