import { parseAbi } from 'viem';
/** The ".mega" name service, as its identity module calls it. */
export const namesAbi = parseAbi([
    'function getName(address owner) view returns (string)',
    'function getAddress(string label) view returns (address)',
    'function getProfile(address owner) view returns (string avatar, string description, string twitter, string github, string telegram, string url)',
]);
/** ERC-8004 identity registry (agents are ERC-721 tokens). */
export const identityRegistryAbi = parseAbi([
    'function tokenURI(uint256 agentId) view returns (string)',
    'function ownerOf(uint256 agentId) view returns (address)',
    'function getAgentWallet(uint256 agentId) view returns (address)',
    'function balanceOf(address owner) view returns (uint256)',
    'function register(string agentURI) returns (uint256)',
]);
/** ERC-8004 reputation registry. */
export const reputationRegistryAbi = parseAbi([
    'function getSummary(uint256 agentId, address[] clientAddresses, string tag1, string tag2) view returns (uint256 count, int128 summaryValue, uint8 summaryDecimals)',
    'function getClients(uint256 agentId) view returns (address[])',
    'function giveFeedback(uint256 agentId, int128 value, uint8 valueDecimals, string tag1, string tag2, string endpoint, string feedbackURI, bytes32 feedbackHash)',
]);
//# sourceMappingURL=registries.js.map