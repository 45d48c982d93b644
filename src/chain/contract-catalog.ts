import type { ContractName } from './contract-names.ts'

export type ContractFacts = {
  label: string
  kind: string
  description: string
  keyFunctions: string[]
  events?: string[]
}

/**
 * What an agent needs to know about each contract, listed in the service-protocol
 * registry. Signatures are those of the real deployment on chain 4326.
 */
export const contractCatalog: Record<ContractName, ContractFacts> = {
  token: {
    label: 'MEGACHAD service token',
    kind: 'ERC-20 (18 decimals), burnable',
    description: 'Burned 225,000 per portrait: 112,500 to the dead address and 112,500 to the fund wallet.',
    keyFunctions: ['transfer(address,uint256)', 'approve(address,uint256)', 'balanceOf(address)', 'totalSupply()'],
    events: ['Transfer(address indexed,address indexed,uint256)'],
  },
  secondToken: {
    label: 'MEGAGOONER (MG)',
    kind: 'ERC-20 (18 decimals)',
    description: 'Reward and governance token of the DeFi side.',
    keyFunctions: ['transfer(address,uint256)', 'approve(address,uint256)', 'balanceOf(address)'],
  },
  usdm: {
    label: 'USDm stablecoin',
    kind: 'ERC-20 (18 decimals)',
    description: 'The infrastructure fee currency: 1 USDm per portrait.',
    keyFunctions: ['approve(address,uint256)', 'balanceOf(address)'],
  },
  usdmForwarder: {
    label: 'USDm forwarder (EIP-3009)',
    kind: 'EIP-3009 adapter; x402 asset',
    description:
      'Moves USDm by signed TransferWithAuthorization (EIP-712 domain "USDm Forwarder", version "1"). Approve the forwarder on USDm once.',
    keyFunctions: [
      'transferWithAuthorization(address,address,uint256,uint256,uint256,bytes32,uint8,bytes32,bytes32)',
      'authorizationState(address,bytes32)',
    ],
    events: ['AuthorizationUsed(address indexed,bytes32 indexed)'],
  },
  nft: {
    label: 'MegaCHAD Looksmaxx NFT',
    kind: 'ERC-721 with token URIs',
    description: 'One token per redeemed burn, minted by the service to the burner. Token IDs start at 0.',
    keyFunctions: ['mint(address,string)', 'ownerOf(uint256)', 'tokenURI(uint256)', 'balanceOf(address)'],
    events: ['Transfer(address indexed,address indexed,uint256 indexed)'],
  },
  relayer: {
    label: 'MegaChadRelayer',
    kind: 'EIP-712 gasless burn relayer',
    description:
      'Burns both halves from a holder who approved it, on their BurnRequest(address burner,uint256 nonce,uint256 deadline) signature.',
    keyFunctions: ['relayBurn(address,uint256,uint8,bytes32,bytes32)', 'nonces(address)', 'burnAmount()'],
    events: ['GaslessBurn(address indexed,uint256,uint256)'],
  },
  referral: {
    label: 'MegaChadReferral',
    kind: 'Referral burns',
    description: 'Registered agents earn 11,250 tokens per referred burn, paid out of the fund half.',
    keyFunctions: ['registerAgent()', 'burnWithReferral(address)', 'getAgentStats(address)', 'isAgent(address)'],
    events: ['ReferralBurn(address indexed,address indexed,uint256,uint256,uint256)', 'AgentRegistered(address indexed)'],
  },
  identityRegistry: {
    label: 'ERC-8004 Identity Registry',
    kind: 'ERC-721 agent identities',
    description: 'Holds the service agent registration (ERC-8004 v1 interface).',
    keyFunctions: ['register(string)', 'tokenURI(uint256)', 'ownerOf(uint256)', 'getAgentWallet(uint256)', 'getMetadata(uint256,string)'],
    events: ['Registered(uint256 indexed,string,address indexed)'],
  },
  reputationRegistry: {
    label: 'ERC-8004 Reputation Registry',
    kind: 'Agent feedback',
    description: 'Feedback about agents (ERC-8004 v1 interface); the leaderboard and the agent info show its summary.',
    keyFunctions: [
      'giveFeedback(uint256,int128,uint8,string,string,string,string,bytes32)',
      'revokeFeedback(uint256,uint64)',
      'getSummary(uint256,address[],string,string)',
      'readFeedback(uint256,address,uint64)',
      'getClients(uint256)',
      'getLastIndex(uint256,address)',
    ],
    events: [
      'NewFeedback(uint256 indexed,address indexed,uint64,int128,uint8,string indexed,string,string,string,string,bytes32)',
      'FeedbackRevoked(uint256 indexed,address indexed,uint64 indexed)',
    ],
  },
  names: {
    label: 'MegaNames',
    kind: '.mega name service',
    description: 'Names and profiles shown on the leaderboard.',
    keyFunctions: ['getName(address)', 'getAddress(string)', 'getProfile(address)'],
  },
  multicall3: {
    label: 'Multicall3',
    kind: 'Batch reads',
    description: 'The service batches every read of one request through it.',
    keyFunctions: ['aggregate3((address,bool,bytes)[])', 'getEthBalance(address)'],
  },
  weth: {
    label: 'WETH',
    kind: 'Wrapped ETH (WETH9)',
    description: 'tokenIn of the buy swap; the router wraps native ETH sent as value.',
    keyFunctions: ['deposit()', 'withdraw(uint256)'],
  },
  uniswapV3Factory: {
    label: 'Kumbaya V3 factory',
    kind: 'Uniswap V3 factory',
    description: 'Creates the concentrated-liquidity pools.',
    keyFunctions: ['getPool(address,address,uint24)'],
  },
  positionManager: {
    label: 'Kumbaya position manager',
    kind: 'Uniswap V3 NonfungiblePositionManager',
    description: 'Liquidity positions of the pools.',
    keyFunctions: ['mint((address,address,uint24,int24,int24,uint256,uint256,uint256,uint256,address,uint256))'],
  },
  quoterV2: {
    label: 'Kumbaya QuoterV2',
    kind: 'Uniswap V3 quoter',
    description: 'Prices swaps by simulation (call it with eth_call, not a transaction).',
    keyFunctions: ['quoteExactInputSingle((address,address,uint256,uint24,uint160))'],
  },
  swapRouter: {
    label: 'Kumbaya SwapRouter',
    kind: 'Uniswap SwapRouter02',
    description: 'exactInputSingle takes seven fields (no deadline); send ETH as value with tokenIn = WETH.',
    keyFunctions: ['exactInputSingle((address,address,uint24,address,uint256,uint256,uint160))'],
  },
  pool: {
    label: 'MEGACHAD/WETH pool',
    kind: 'Uniswap V3 pool, 1% fee tier',
    description: 'The pool every quote reads.',
    keyFunctions: ['slot0()', 'liquidity()', 'token0()'],
    events: ['Swap(address indexed,address indexed,int256,int256,uint160,uint128,int24)'],
  },
  moggerStaking: {
    label: 'Mogger staking',
    kind: 'Staking venue (MoggerStakingV2)',
    description: 'Stake MEGACHAD, earn MG over the 225-week schedule; needs 1+ portrait NFT (boost 1.000x from 1, 1.075x from 10, 1.150x from 25).',
    keyFunctions: ['stake(uint256)', 'unstake(uint256)', 'claimRewards()', 'getStakerInfo(address)', 'getGlobalStats()'],
    events: ['Staked(address indexed,uint256)', 'Unstaked(address indexed,uint256)', 'RewardsClaimed(address indexed,uint256)'],
  },
  jesterStaking: {
    label: 'Jester staking',
    kind: 'LP staking venue, multi-pool (JesterGoonerV3)',
    description: 'Stake LP tokens (pool 0: the MC/MG pair), earn MG; needs 1+ portrait NFT (same boost tiers).',
    keyFunctions: ['stake(uint256,uint256)', 'unstake(uint256,uint256)', 'claimRewards(uint256)', 'getUserInfo(uint256,address)', 'getPoolInfo(uint256)'],
    events: ['Staked(address indexed,uint256 indexed,uint256)', 'Unstaked(address indexed,uint256 indexed,uint256)', 'RewardsClaimed(address indexed,uint256 indexed,uint256)'],
  },
  pair: {
    label: 'MC/MG pair',
    kind: 'Constant-product pair, 0.3 % fee (tokenA/tokenB layout)',
    description: 'Generic V2 routers do not find it; use the service builders. No on-chain minimum output: check minOut off chain.',
    keyFunctions: ['swap(uint256,uint256,address)', 'addLiquidity(uint256,uint256,address)', 'removeLiquidity(uint256,address)', 'getReserves()', 'tokenA()', 'tokenB()'],
    events: ['Swap(address indexed,uint256,uint256,uint256,uint256)', 'Mint(address indexed,uint256,uint256,uint256)', 'Burn(address indexed,uint256,uint256,uint256)'],
  },
  governance: {
    label: 'Jestermogger governance',
    kind: 'Governor',
    description: 'Proposals by the week top-3 burners; 1 day delay, 3 days voting, 2 days timelock, 7 days grace.',
    keyFunctions: ['propose(address[],uint256[],bytes[],string)', 'castVote(uint256,uint8)', 'queue(uint256)', 'execute(uint256)', 'state(uint256)', 'getProposal(uint256)'],
    events: [
      'ProposalCreated(uint256 indexed,address indexed,address[],uint256[],string,uint256,uint256)',
      'VoteCast(address indexed,uint256 indexed,uint8,uint256)',
      'ProposalQueued(uint256 indexed,uint256)',
      'ProposalExecuted(uint256 indexed)',
      'ProposalVetoed(uint256 indexed)',
    ],
  },
  vetoCouncil: {
    label: 'NFT veto council',
    kind: 'Veto council',
    description: '20 seats, 11 vetoes needed within a 2-day window opened on a Queued proposal.',
    keyFunctions: ['startVetoVote(uint256)', 'castVetoVote(uint256,bool)', 'getVetoVote(uint256)', 'getCouncil()'],
    events: ['VetoVoteStarted(uint256 indexed,uint256)', 'VetoCast(uint256 indexed,address indexed,bool)', 'VetoExecuted(uint256 indexed,uint256,uint256)'],
  },
  ranking: {
    label: 'Framemogger',
    kind: 'Weekly burner ranking',
    description: 'NFT holders send MEGACHAD to the fund and burn MG at 4 : 1; the top 3 of this or last week may propose.',
    keyFunctions: ['sendMegachad(uint256)', 'getWeekTop3(uint256)', 'getCurrentWeek()', 'canPropose(address)'],
    events: ['MegachadSent(address indexed,uint256,uint256,uint256)', 'TopBurnersUpdated(uint256 indexed,address[3],uint256[3])'],
  },
  emissionController: {
    label: 'Emission controller',
    kind: 'Emission schedule',
    description: '225 weeks, quadratic decay, split between mogger, jester and treasury in bps.',
    keyFunctions: ['getCurrentWeek()', 'calculateWeeklyEmission(uint256)', 'getCurrentSplit()', 'getProjectedEmissions(uint256)'],
    events: ['EmissionDistributed(uint256 indexed,uint256,uint256,uint256,uint256)'],
  },
  circuitBreaker: {
    label: 'Circuit breaker',
    kind: 'Safety switch',
    description: 'Pauses protocol writes (3 of 5 guardians; auto-unpause after 7 days); check before sending.',
    keyFunctions: ['isPaused()', 'getPauseStatus()', 'getGuardians()'],
    events: ['ProtocolPaused(address indexed,uint256)', 'ProtocolUnpaused(address indexed,uint256)'],
  },
}
