import { getAgentInfo } from '../../operations/agent/get-agent-info.ts'
import { getAgentIndex } from '../../operations/agent/get-agent-index.ts'
import { getPrice } from '../../operations/market/get-price.ts'
import { getStats } from '../../operations/token/get-stats.ts'
import { getGallery } from '../../operations/read/get-gallery.ts'
import { getChadboard } from '../../operations/read/get-chadboard.ts'
import { getIdentity } from '../../operations/read/get-identity.ts'
import { getServiceProtocol } from '../../operations/discovery/get-service-protocol.ts'
import { getPortalProtocols } from '../../operations/portal/get-portal-protocols.ts'
import { getSafety } from '../../operations/defi/get-safety.ts'
import { getActivity } from '../../operations/defi/get-activity.ts'
import { CHAIN_ID } from '../../chain/constants.ts'
import { call } from '../runner.ts'
import { operationIntent, type IntentHandler } from './define-intent.ts'
import { BURN_WORDS } from './looksmaxx.ts'

export const about = operationIntent({
  description: 'What the service is and does (its ERC-8004 identity)',
  example: 'what is this',
  operation: getAgentInfo,
  input: () => ({}),
  answer: (d) =>
    `Burn ${BURN_WORDS.total} MEGACHAD and pay ${BURN_WORDS.fee} with x402 to get an AI-enhanced portrait minted as an NFT on MegaETH (chain ${CHAIN_ID})${d.onChain.agentId ? `; this service is ERC-8004 agent #${d.onChain.agentId}` : ''}. Ask for the price, a plan for your wallet, the gallery or the leaderboard.`,
  next: () => [call(getPrice, {}, 'Token price and burn cost'), call(getStats, {}, 'Stats'), call(getAgentIndex, {}, 'Agent index: every endpoint')],
})

export const gallery = operationIntent({
  description: 'Recent portraits, newest first',
  example: 'show me the latest portraits',
  operation: getGallery,
  input: (ctx) => ({ limit: Math.min(50, Math.max(1, ctx.entities.count ?? 5)) }),
  answer: (d) => (d.burns[0] ? `The ${d.burns.length} latest portraits, newest first; the newest was minted to ${d.burns[0].burner}.` : 'No portraits minted yet.'),
  next: () => [call(getGallery, { limit: 20 }, 'More portraits')],
})

export const leaderboard = operationIntent({
  description: 'Top burners (chadboard) with reputation',
  example: 'who burned the most',
  operation: getChadboard,
  input: () => ({}),
  answer: (d) =>
    d.entries[0]
      ? `Top burner: ${d.entries[0].chainName ?? d.entries[0].address} with ${d.entries[0].totalBurns} portraits (${d.entries.length} burners ranked).`
      : 'Nobody has burned yet: the chadboard is empty.',
  next: (_ctx, d) => d.entries.slice(0, 3).map((e) => call(getIdentity, { addressOrName: e.address }, `Profile of ${e.chainName ?? e.address}`)),
})

const serviceProtocol = operationIntent({
  description: 'Every deployed contract with its address and key functions',
  example: 'list the contract addresses',
  operation: getServiceProtocol,
  input: () => ({}),
  answer: (d) => `${Object.keys(d.contracts).length} contracts on chain ${d.chain.chainId} (their addresses are in the data): ${Object.keys(d.contracts).join(', ')}.`,
  next: () => [call(getPortalProtocols, {}, 'Protocols on the chain')],
})

const portalProtocols = operationIntent({
  description: serviceProtocol.description,
  example: serviceProtocol.example,
  operation: getPortalProtocols,
  input: () => ({}),
  answer: (d) => `${d.protocols.length} protocols on the chain: ${d.protocols.map((p) => p.name).join(', ')}.`,
})

/** The service's own contracts, or the chain's protocol list where that is all this deployment has. */
export const protocolRegistry: IntentHandler = {
  ...serviceProtocol,
  operations: [getServiceProtocol, getPortalProtocols],
  reply: (ctx, runner) => (runner.has(getServiceProtocol) ? serviceProtocol : portalProtocols).reply(ctx, runner),
}

export const safety = operationIntent({
  description: 'Safety state to check before any write',
  example: 'is it safe to stake',
  operation: getSafety,
  input: () => ({}),
  answer: (d) =>
    `${d.writesSafe ? 'Writes are safe now' : 'Do not write now'}: the circuit breaker is ${d.circuitBreaker.paused ? 'paused' : 'not paused'}; the veto council has ${d.vetoCouncil.seatsFilled} of ${d.vetoCouncil.councilSize} seats filled (${d.vetoCouncil.vetoThreshold} to veto).`,
})

export const activity = operationIntent({
  description: 'Activity feed: burns, staking, ranking and governance events',
  example: 'recent activity',
  operation: getActivity,
  input: (ctx) => ({ limit: ctx.entities.count ? Math.min(200, ctx.entities.count) : undefined }),
  answer: (d) => (d.items.length ? `${d.count} recent events, newest first; the latest: ${d.items[0]!.summary}.` : 'No activity in the window looked at.'),
})
