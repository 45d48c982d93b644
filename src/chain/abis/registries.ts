import { parseAbi } from 'viem'

/** The ".mega" name service, as its identity module calls it. */
export const namesAbi = parseAbi([
  'function getName(address owner) view returns (string)',
  'function getAddress(string label) view returns (address)',
  'function getProfile(address owner) view returns (string avatar, string description, string twitter, string github, string telegram, string url)',
])

/**
 * ERC-8004 identity registry, as deployed at 0x8004A169… (erc-8004-contracts v1, getVersion()
 * "2.0.0"): agents are ERC-721 tokens, ids from 0.
 */
export const identityRegistryAbi = parseAbi([
  'function tokenURI(uint256 agentId) view returns (string)',
  'function ownerOf(uint256 agentId) view returns (address)',
  'function getAgentWallet(uint256 agentId) view returns (address)',
  'function getMetadata(uint256 agentId, string metadataKey) view returns (bytes)',
  'function isAuthorizedOrOwner(address spender, uint256 agentId) view returns (bool)',
  'function balanceOf(address owner) view returns (uint256)',
  'function getVersion() pure returns (string)',
  'function register(string agentURI) returns (uint256 agentId)',
  'event Registered(uint256 indexed agentId, string agentURI, address indexed owner)',
])

/**
 * ERC-8004 reputation registry, as deployed at 0x8004BAa1… (v1, getVersion() "2.0.0"), not the
 * Oct-2025 draft (uint8 score, feedbackAuth). Feedback indexes are 1-based per (agent, client);
 * getSummary reverts on an empty client list (read getClients first).
 */
export const reputationRegistryAbi = parseAbi([
  'function giveFeedback(uint256 agentId, int128 value, uint8 valueDecimals, string tag1, string tag2, string endpoint, string feedbackURI, bytes32 feedbackHash)',
  'function revokeFeedback(uint256 agentId, uint64 feedbackIndex)',
  'function appendResponse(uint256 agentId, address clientAddress, uint64 feedbackIndex, string responseURI, bytes32 responseHash)',
  'function getSummary(uint256 agentId, address[] clientAddresses, string tag1, string tag2) view returns (uint64 count, int128 summaryValue, uint8 summaryValueDecimals)',
  'function readFeedback(uint256 agentId, address clientAddress, uint64 feedbackIndex) view returns (int128 value, uint8 valueDecimals, string tag1, string tag2, bool isRevoked)',
  'function readAllFeedback(uint256 agentId, address[] clientAddresses, string tag1, string tag2, bool includeRevoked) view returns (address[] clients, uint64[] feedbackIndexes, int128[] values, uint8[] valueDecimals, string[] tag1s, string[] tag2s, bool[] revokedStatuses)',
  'function getClients(uint256 agentId) view returns (address[])',
  'function getLastIndex(uint256 agentId, address clientAddress) view returns (uint64)',
  'function getResponseCount(uint256 agentId, address clientAddress, uint64 feedbackIndex, address[] responders) view returns (uint64 count)',
  'function getIdentityRegistry() view returns (address)',
  'function getVersion() pure returns (string)',
  'event NewFeedback(uint256 indexed agentId, address indexed clientAddress, uint64 feedbackIndex, int128 value, uint8 valueDecimals, string indexed indexedTag1, string tag1, string tag2, string endpoint, string feedbackURI, bytes32 feedbackHash)',
  'event FeedbackRevoked(uint256 indexed agentId, address indexed clientAddress, uint64 indexed feedbackIndex)',
  'event ResponseAppended(uint256 indexed agentId, address indexed clientAddress, uint64 feedbackIndex, address indexed responder, string responseURI, bytes32 responseHash)',
])
