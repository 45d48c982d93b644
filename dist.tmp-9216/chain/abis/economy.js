import { parseAbi } from 'viem';
/** MegaChadRelayer: gasless burns by EIP-712 BurnRequest signatures. */
export const relayerAbi = parseAbi([
    'function relayBurn(address burner, uint256 deadline, uint8 v, bytes32 r, bytes32 s)',
    'function nonces(address burner) view returns (uint256)',
    'function burnAmount() view returns (uint256)',
    'event GaslessBurn(address indexed burner, uint256 nonce, uint256 burnAmount)',
]);
/** The EIP-712 domain a BurnRequest is signed in: the relayer contract on this chain. */
export const burnRequestDomain = (relayer, chainId) => ({ name: 'MegaChadRelayer', version: '1', chainId, verifyingContract: relayer });
export const burnRequestTypes = {
    BurnRequest: [
        { name: 'burner', type: 'address' },
        { name: 'nonce', type: 'uint256' },
        { name: 'deadline', type: 'uint256' },
    ],
};
/** MegaChadReferral: agents registered for referral rewards. */
export const referralAbi = parseAbi([
    'function registerAgent()',
    'function burnWithReferral(address referrer)',
    'function isAgent(address agent) view returns (bool)',
    'function getAgentStats(address agent) view returns (uint256 count, uint256 earnings, bool registered)',
    'function referralBps() view returns (uint256)',
    'event ReferralBurn(address indexed burner, address indexed referrer, uint256 burnedAmount, uint256 trenAmount, uint256 referralReward)',
]);
//# sourceMappingURL=economy.js.map