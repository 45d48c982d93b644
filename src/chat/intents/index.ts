import type { Intent } from '../intent-names.ts'
import type { IntentHandler } from './define-intent.ts'
import { burn, crossChainLooksmaxx, gasless, looksmaxx, schedule } from './looksmaxx.ts'
import { bridge, price, stats } from './market.ts'
import { swap } from './swap.ts'
import { identity, nftInventory, wallet } from './wallet.ts'
import { referral, registerAgent } from './referral.ts'
import { about, activity, gallery, leaderboard, protocolRegistry, safety } from './discovery.ts'
import { claimRewards, emissionSchedule, stake, stakingPosition, unstake } from './staking.ts'
import { addLiquidity, swapMcMg } from './pair.ts'
import { executeProposal, listProposals, propose, proposalDetail, queueProposal, veto, vote } from './governance.ts'
import { compare } from './compare.ts'
import { multiBurn } from './multi-burn.ts'

/** Every intent and how it is answered: one explicit table, checked complete by its type. */
export const INTENT_HANDLERS: Record<Intent, IntentHandler> = {
  looksmaxx,
  cross_chain_looksmaxx: crossChainLooksmaxx,
  swap,
  burn,
  bridge,
  price,
  stats,
  wallet,
  gallery,
  leaderboard,
  referral,
  register_agent: registerAgent,
  gasless,
  compare,
  multi_burn: multiBurn,
  schedule,
  about,
  identity,
  stake,
  unstake,
  claim_rewards: claimRewards,
  staking_position: stakingPosition,
  swap_mc_mg: swapMcMg,
  add_liquidity: addLiquidity,
  list_proposals: listProposals,
  proposal_detail: proposalDetail,
  vote,
  queue_proposal: queueProposal,
  execute_proposal: executeProposal,
  propose,
  veto,
  emission_schedule: emissionSchedule,
  protocol_registry: protocolRegistry,
  nft_inventory: nftInventory,
  safety,
  activity,
}
