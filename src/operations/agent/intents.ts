/** The intents the agent index announces (the chat endpoint understands them as it grows). */
export const AGENT_INTENTS = [
  'looksmaxx', 'cross_chain_looksmaxx', 'swap', 'burn', 'bridge', 'price', 'stats', 'wallet', 'gallery', 'leaderboard',
  'referral', 'register_agent', 'gasless', 'compare', 'multi_burn', 'schedule', 'about', 'identity', 'stake', 'unstake',
  'claim_rewards', 'staking_position', 'swap_mc_mg', 'add_liquidity', 'list_proposals', 'proposal_detail', 'vote',
  'queue_proposal', 'execute_proposal', 'propose', 'veto', 'emission_schedule', 'protocol_registry', 'nft_inventory',
  'safety', 'activity',
] as const

/** Which group of the agent index an operation belongs to, by its first tag. */
export const ENDPOINT_GROUPS: Record<string, 'discovery' | 'naturalLanguage' | 'reads' | 'txBuilders' | 'agentEconomy'> = {
  discovery: 'discovery',
  agent: 'discovery',
  chat: 'naturalLanguage',
  read: 'reads',
  market: 'reads',
  token: 'reads',
  wallet: 'reads',
  bridge: 'reads',
  swap: 'reads',
  events: 'reads',
  looksmaxx: 'agentEconomy',
  ipfs: 'reads',
  defi: 'txBuilders',
  economy: 'agentEconomy',
}
