/**
 * The curated directory of protocols on the chain that an agent of this service meets.
 * Addresses of the service's own contracts are filled in from the deployment.
 */
export const protocolDirectory = [
  { id: 'megachad', name: 'MegaChad', category: 'burn-to-create', url: 'https://megachad.xyz', description: 'Burn MEGACHAD for AI portraits minted as NFTs; this service.', contracts: ['token', 'nft', 'relayer', 'referral'] },
  { id: 'kumbaya', name: 'Kumbaya', category: 'dex', url: 'https://kumbaya.xyz', description: 'Uniswap V3 fork: the MEGACHAD/WETH pool every quote reads.', contracts: ['quoterV2', 'swapRouter', 'pool'] },
  { id: 'megaeth-bridge', name: 'MegaETH Bridge', category: 'bridge', url: 'https://bridge.megaeth.com', description: 'Canonical bridge from Ethereum.', contracts: [] },
  { id: 'rabbithole', name: 'Rabbithole', category: 'bridge', url: 'https://rabbithole.megaeth.com/bridge', description: 'Bridge aggregator from the major chains.', contracts: [] },
  { id: 'meridian', name: 'Meridian', category: 'payments', url: 'https://docs.mrdn.finance', description: 'x402 facilitator; USDm forwarder for EIP-3009 payments.', contracts: ['usdmForwarder'] },
  { id: 'meganames', name: 'MegaNames', category: 'naming', url: 'https://meganames.xyz', description: '.mega names and profiles.', contracts: ['names'] },
  { id: 'erc8004', name: 'ERC-8004 registries', category: 'agents', url: 'https://eips.ethereum.org/EIPS/eip-8004', description: 'Agent identity and reputation.', contracts: ['identityRegistry', 'reputationRegistry'] },
] as const

export const DIRECTORY_UPDATED = '2026-11-22'
