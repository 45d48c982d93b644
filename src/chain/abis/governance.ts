import { parseAbi } from 'viem'

/**
 * Jestermogger governance, the testnet-deployed shape (docs/contributors/contracts.md, Governance), which the
 * devnet contract implements. `state` follows `proposalStates`.
 */
export const governanceAbi = parseAbi([
  'function propose(address[] targets, uint256[] values, bytes[] calldatas, string description) returns (uint256)',
  'function castVote(uint256 proposalId, uint8 support)',
  'function queue(uint256 proposalId)',
  'function execute(uint256 proposalId) payable',
  'function veto(uint256 proposalId)',
  'function state(uint256 proposalId) view returns (uint8)',
  'function proposalCount() view returns (uint256)',
  'function getProposal(uint256 proposalId) view returns (address proposer, string description, uint256 forVotes, uint256 againstVotes, uint256 abstainVotes, uint256 startTime, uint256 endTime, uint256 eta, bool executed, bool vetoed, uint8 currentState)',
  'function getActions(uint256 proposalId) view returns (address[] targets, uint256[] values, bytes[] calldatas)',
  'function getReceipt(uint256 proposalId, address voter) view returns (bool hasVoted, uint8 support, uint256 votes)',
  'function quorum() view returns (uint256)',
  'function framemogger() view returns (address)',
  'function megagooner() view returns (address)',
  'function vetoCouncil() view returns (address)',
  'function VOTING_DELAY() view returns (uint256)',
  'function VOTING_PERIOD() view returns (uint256)',
  'function TIMELOCK_PERIOD() view returns (uint256)',
  'function GRACE_PERIOD() view returns (uint256)',
  'function QUORUM_PERCENTAGE() view returns (uint256)',
  'event ProposalCreated(uint256 indexed proposalId, address indexed proposer, address[] targets, uint256[] values, string description, uint256 startTime, uint256 endTime)',
  'event VoteCast(address indexed voter, uint256 indexed proposalId, uint8 support, uint256 votes)',
  'event ProposalQueued(uint256 indexed proposalId, uint256 eta)',
  'event ProposalExecuted(uint256 indexed proposalId)',
  'event ProposalVetoed(uint256 indexed proposalId)',
])

/** The recorded state enum, in order (docs/contributors/contracts.md, Governance). */
export const proposalStates = ['Pending', 'Active', 'Defeated', 'Succeeded', 'Queued', 'Executed', 'Expired', 'Vetoed'] as const
export type ProposalState = (typeof proposalStates)[number]

/** castVote's support argument. */
export const voteSupport = { against: 0, for: 1, abstain: 2 } as const
export type VoteSupport = keyof typeof voteSupport
