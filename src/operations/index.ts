import type { AnyOperation } from './define.ts'
import { getSwapQuote } from './swap/get-swap-quote.ts'
import { getPrice } from './market/get-price.ts'
import { getStats } from './token/get-stats.ts'
import { getWallet } from './wallet/get-wallet.ts'
import { getBridgeInfo } from './bridge/get-bridge-info.ts'
import { getServiceProtocol } from './discovery/get-service-protocol.ts'
import { getOpenApi } from './discovery/get-openapi.ts'
import { getPaymentRequirements } from './looksmaxx/get-payment-requirements.ts'
import { submitLooksmaxx } from './looksmaxx/submit-looksmaxx.ts'
import { getLooksmaxxStatus } from './looksmaxx/get-looksmaxx-status.ts'
import { getLooksmaxxReceipt } from './looksmaxx/get-looksmaxx-receipt.ts'
import { buildFeedbackTx } from './looksmaxx/build-feedback-tx.ts'
import { getLooksmaxxPlan } from './looksmaxx/get-looksmaxx-plan.ts'
import { getNftMetadata } from './looksmaxx/get-nft-metadata.ts'
import { burnToCreate } from './looksmaxx/burn-to-create.ts'
import { getIpfsContent } from './ipfs/get-ipfs-content.ts'
import { streamEvents } from './events/stream-events.ts'
import { listEvents } from './events/list-events.ts'
import { getGallery } from './read/get-gallery.ts'
import { getChadboard } from './read/get-chadboard.ts'
import { getIdentity } from './read/get-identity.ts'
import { getAgentInfo } from './agent/get-agent-info.ts'
import { getAgentIndex } from './agent/get-agent-index.ts'
import { getPortalTokens } from './portal/get-portal-tokens.ts'
import { getPortalProtocols } from './portal/get-portal-protocols.ts'
import { getGaslessBurn } from './gasless/get-gasless-burn.ts'
import { relayGaslessBurn } from './gasless/relay-gasless-burn.ts'
import { getReferralAgent } from './referral/get-referral-agent.ts'
import { registerReferralAgent } from './referral/register-referral-agent.ts'
import { getReferrals } from './referral/get-referrals.ts'
import { getEarlyAccessInfo } from './early-access/get-early-access.ts'
import { registerEarlyAccess } from './early-access/register-early-access.ts'
import { getCrossChainIntent } from './cross-chain/get-cross-chain-intent.ts'
import { chatWithAgent, getChatInfo } from './agent/chat.ts'
import { getAgentCard } from './discovery/get-agent-card.ts'
import { getMcpManifest } from './discovery/get-mcp-manifest.ts'
import { getPluginManifest } from './discovery/get-plugin-manifest.ts'
import { getAgentRegistration } from './discovery/get-agent-registration.ts'
import { getReceiptSchema } from './discovery/get-receipt-schema.ts'
import { getAgentsTxt } from './discovery/get-agents-txt.ts'
import { getLlmsTxt } from './discovery/get-llms-txt.ts'
import { getLlmsFullTxt } from './discovery/get-llms-full-txt.ts'
import { getTerms } from './discovery/get-terms.ts'
import { getPrivacy } from './discovery/get-privacy.ts'
import { getAgentImage } from './discovery/get-agent-image.ts'
import { getDefiStaking } from './defi/get-defi-staking.ts'
import { buildStakingTx } from './defi/build-staking-tx.ts'
import { getAmmQuote } from './defi/get-amm-quote.ts'
import { buildAmmSwapTx } from './defi/build-amm-swap-tx.ts'
import { buildAddLiquidityTx } from './defi/build-add-liquidity-tx.ts'
import { listProposals } from './defi/list-proposals.ts'
import { getProposal } from './defi/get-proposal.ts'
import { buildVoteTx } from './defi/build-vote-tx.ts'
import { buildQueueTx } from './defi/build-queue-tx.ts'
import { buildExecuteTx } from './defi/build-execute-tx.ts'
import { getProposeEligibility } from './defi/get-propose-eligibility.ts'
import { buildProposeTx } from './defi/build-propose-tx.ts'
import { buildVetoTx } from './defi/build-veto-tx.ts'
import { getEmission } from './defi/get-emission.ts'
import { getDefiNft } from './defi/get-defi-nft.ts'
import { getSafety } from './defi/get-safety.ts'
import { getActivity } from './defi/get-activity.ts'

/**
 * The registry: every capability of the service, listed explicitly. HTTP routes, MCP tools,
 * the OpenAPI document and chat intents are all derived from this list.
 */
export const operations = [
  getSwapQuote,
  getPrice,
  getStats,
  getWallet,
  getBridgeInfo,
  getServiceProtocol,
  getOpenApi,
  getPaymentRequirements,
  submitLooksmaxx,
  getLooksmaxxStatus,
  getLooksmaxxReceipt,
  buildFeedbackTx,
  getLooksmaxxPlan,
  getNftMetadata,
  burnToCreate,
  getIpfsContent,
  streamEvents,
  listEvents,
  getGallery,
  getChadboard,
  getIdentity,
  getAgentInfo,
  getAgentIndex,
  getPortalTokens,
  getPortalProtocols,
  getAgentCard,
  getMcpManifest,
  getPluginManifest,
  getAgentRegistration,
  getReceiptSchema,
  getAgentsTxt,
  getLlmsTxt,
  getLlmsFullTxt,
  getTerms,
  getPrivacy,
  getAgentImage,
  getGaslessBurn,
  relayGaslessBurn,
  getReferralAgent,
  registerReferralAgent,
  getReferrals,
  getEarlyAccessInfo,
  registerEarlyAccess,
  getCrossChainIntent,
  chatWithAgent,
  getChatInfo,
  getDefiStaking,
  buildStakingTx,
  getAmmQuote,
  buildAmmSwapTx,
  buildAddLiquidityTx,
  listProposals,
  getProposal,
  buildVoteTx,
  buildQueueTx,
  buildExecuteTx,
  getProposeEligibility,
  buildProposeTx,
  buildVetoTx,
  getEmission,
  getDefiNft,
  getSafety,
  getActivity,
] as unknown as AnyOperation[]
