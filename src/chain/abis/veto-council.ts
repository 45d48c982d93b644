import { parseAbi } from 'viem'

/** NFTVetoCouncil (docs/contributors/contracts.md, Veto council): 20 seats, 11 vetoes, 2-day window per Queued proposal. */
export const vetoCouncilAbi = parseAbi([
  'function startVetoVote(uint256 proposalId)',
  'function castVetoVote(uint256 proposalId, bool support)',
  'function updateCouncil(uint256 maxTokenId)',
  'function getVetoVote(uint256 proposalId) view returns (uint256 startTime, uint256 endTime, uint256 yesVotes, uint256 noVotes, bool executed, bool expired, bool canExecute)',
  'function getCouncil() view returns (address[20])',
  'function isCouncilMember(address account) view returns (bool)',
  'function hasVotedOnVeto(uint256 proposalId, address account) view returns (bool)',
  'function isVetoed(uint256 proposalId) view returns (bool)',
  'function canVeto(uint256 proposalId) view returns (bool)',
  'function vetoWindowElapsed(uint256 proposalId) view returns (bool)',
  'function governance() view returns (address)',
  'function nftContract() view returns (address)',
  'function COUNCIL_SIZE() view returns (uint256)',
  'function VETO_THRESHOLD() view returns (uint256)',
  'function VETO_VOTING_PERIOD() view returns (uint256)',
  'function MAX_SCAN_LIMIT() view returns (uint256)',
  'event CouncilUpdated(address[20] members)',
  'event VetoVoteStarted(uint256 indexed proposalId, uint256 startTime)',
  'event VetoCast(uint256 indexed proposalId, address indexed voter, bool support)',
  'event VetoExecuted(uint256 indexed proposalId, uint256 yesVotes, uint256 noVotes)',
])
