import { decodeEventLog, isAddressEqual, toEventSelector, type Log } from 'viem'
import { BURN_ADDRESS } from '../chain/constants.ts'
import { tokenTransferAbi as transferAbi } from '../chain/abis/token.ts'
import { portraitNftAbi as nftTransferAbi } from '../chain/abis/portrait-nft.ts'
import { referralAbi as referralBurnAbi } from '../chain/abis/economy.ts'
import type { Topic } from '../cache/freshness.ts'


/** Events whose logs change what reads answer, beside the transfers. */
export const WATCHED_EVENTS = {
  transfer: toEventSelector('Transfer(address,address,uint256)'),
  swap: toEventSelector('Swap(address,address,int256,int256,uint160,uint128,int24)'),
  // ERC-8004 v1, as deployed (the Oct-2025 draft's events have other selectors).
  newFeedback: toEventSelector('NewFeedback(uint256,address,uint64,int128,uint8,string,string,string,string,string,bytes32)'),
  feedbackRevoked: toEventSelector('FeedbackRevoked(uint256,address,uint64)'),
  nameRegistered: toEventSelector('NameRegistered(address,string)'),
  agentRegistered: toEventSelector('AgentRegistered(address)'),
  referralBurn: toEventSelector('ReferralBurn(address,address,uint256,uint256,uint256)'),
} as const

export type BurnLeg = { txHash: string; logIndex: number; blockNumber: bigint; sender: string; leg: 'dead' | 'fund'; value: bigint }
export type NftTransfer = { txHash: string; logIndex: number; blockNumber: bigint; from: string; to: string; tokenId: bigint }

export type IndexedAddresses = {
  token: `0x${string}`
  nft: `0x${string}`
  fundWallet: `0x${string}`
  pool: `0x${string}`
  referral: `0x${string}`
  reputationRegistry: `0x${string}`
  names: `0x${string}`
}

/**
 * Sorts raw logs into burn legs (service token to the dead address or the fund wallet),
 * portrait-NFT transfers, and the topics of cached answers they change (see
 * `cache/freshness.ts`): any service-token transfer changes balances and stats, a portrait
 * transfer the gallery and boards, a swap the price, feedback and names the profiles. ERC-20
 * and ERC-721 Transfer share topic0; the NFT's has a fourth topic (the token ID is indexed).
 */
export function decodeIndexedLogs(
  logs: Pick<Log, 'address' | 'topics' | 'data' | 'transactionHash' | 'logIndex' | 'blockNumber'>[],
  addresses: IndexedAddresses,
): { burns: BurnLeg[]; nftTransfers: NftTransfer[]; changed: Set<Topic>; referralRewards: Map<string, bigint> } {
  const burns: BurnLeg[] = []
  const nftTransfers: NftTransfer[] = []
  const changed = new Set<Topic>()
  /** Referral burns by transaction: the agent's reward, the third part of the burn. */
  const referralRewards = new Map<string, bigint>()
  for (const log of logs) {
    const topics = log.topics as [`0x${string}`, ...`0x${string}`[]]
    const base = { txHash: log.transactionHash!.toLowerCase(), logIndex: log.logIndex!, blockNumber: log.blockNumber! }
    const event = topics[0]
    if (isAddressEqual(log.address, addresses.token) && event === WATCHED_EVENTS.transfer && topics.length === 3) {
      changed.add('token')
      const { args } = decodeEventLog({ abi: transferAbi, data: log.data, topics })
      const leg = isAddressEqual(args.to, BURN_ADDRESS) ? 'dead' : isAddressEqual(args.to, addresses.fundWallet) ? 'fund' : undefined
      if (leg) burns.push({ ...base, sender: args.from, leg, value: args.value })
    } else if (isAddressEqual(log.address, addresses.nft) && event === WATCHED_EVENTS.transfer && topics.length === 4) {
      changed.add('portraits')
      const { args } = decodeEventLog({ abi: nftTransferAbi, data: log.data, topics })
      nftTransfers.push({ ...base, from: args.from, to: args.to, tokenId: args.tokenId })
    } else if (isAddressEqual(log.address, addresses.pool) && event === WATCHED_EVENTS.swap) {
      changed.add('pool')
    } else if (isAddressEqual(log.address, addresses.reputationRegistry) || isAddressEqual(log.address, addresses.names)) {
      changed.add('profiles')
    } else if (isAddressEqual(log.address, addresses.referral)) {
      changed.add('referral')
      if (event === WATCHED_EVENTS.referralBurn) {
        const { args } = decodeEventLog({ abi: referralBurnAbi, data: log.data, topics })
        referralRewards.set(base.txHash, args.referralReward)
      }
    }
  }
  return { burns, nftTransfers, changed, referralRewards }
}
