/**
 * Tools that gather several operations of one kind behind a discriminator argument, so that an
 * agent's tool list stays short (32 tools, the spec's count, for 60 operations): one tool for the
 * discovery documents, one for the DeFi transaction builders, and so on. Each member keeps its
 * own input schema, limits and answer; the tool only picks the member by `key`.
 */
export const TOOL_GROUPS = {
  get_discovery_document: {
    title: 'Discovery documents and legal pages',
    key: 'document',
    description: 'One of the documents that describe this service: its contract registry, OpenAPI, agent index, agent card, MCP and plugin manifests, ERC-8004 registration, agents.txt, llms.txt, terms, privacy, the agent image, the chat\'s help, the receipts\' EIP-712 types and key (receipt_schema), or the signed receipt document of a minted looksmaxx (looksmaxx_receipt, by burnTxHash: the feedbackURI of its feedback).',
  },
  get_portal: {
    title: 'MegaETH portfolio and protocols',
    key: 'view',
    description: 'The MegaETH portal: the tokens a wallet holds (view tokens) or the MegaETH protocols directory (view protocols).',
  },
  get_registration_form: {
    title: 'What to sign to register',
    key: 'kind',
    description: 'The EIP-712 typed data to sign before registering: as a referral agent (kind referral_agent, then register_referral_agent) or for early access (kind early_access, then register_early_access), with what each registration gives.',
  },
  get_governance: {
    title: 'Governance proposals',
    key: 'view',
    description: 'Governance reads: the proposals (view proposals), one proposal with its actions and votes (view proposal), or whether a wallet may propose (view propose_eligibility).',
  },
  get_defi: {
    title: 'DeFi state',
    key: 'view',
    description: 'DeFi reads: the emission schedule (view emission), a wallet\'s NFTs and boosts (view nft), the circuit breaker (view safety), or recent DeFi activity (view activity).',
  },
  build_tx: {
    title: 'Transaction builders',
    key: 'action',
    description: 'Unsigned transactions for your wallet to send: stake or unstake (action staking), swap on the pair (amm_swap), add liquidity (add_liquidity), vote, queue, execute, veto or propose in governance, or rate this service after a mint (feedback: ERC-8004 giveFeedback citing the receipt). Nothing is sent by the service.',
  },
} as const satisfies Record<string, { title: string; key: string; description: string }>

export type ToolGroupName = keyof typeof TOOL_GROUPS
