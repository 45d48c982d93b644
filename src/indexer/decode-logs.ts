import { decodeEventLog, isAddressEqual, parseAbi, type Log } from 'viem'
import { BURN_ADDRESS } from '../chain/constants.ts'

const transferAbi = parseAbi(['event Transfer(address indexed from, address indexed to, uint256 value)'])
const nftTransferAbi = parseAbi(['event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)'])

export type BurnLeg = { txHash: string; logIndex: number; blockNumber: bigint; sender: string; leg: 'dead' | 'fund'; value: bigint }
export type NftTransfer = { txHash: string; logIndex: number; blockNumber: bigint; from: string; to: string; tokenId: bigint }

/**
 * Sorts raw Transfer logs into burn legs (service token to the dead address or the fund
 * wallet) and portrait-NFT transfers. ERC-20 and ERC-721 Transfer share topic0; the NFT's has
 * a fourth topic (the token ID is indexed).
 */
export function decodeIndexedLogs(
  logs: Pick<Log, 'address' | 'topics' | 'data' | 'transactionHash' | 'logIndex' | 'blockNumber'>[],
  addresses: { token: `0x${string}`; nft: `0x${string}`; fundWallet: `0x${string}` },
): { burns: BurnLeg[]; nftTransfers: NftTransfer[] } {
  const burns: BurnLeg[] = []
  const nftTransfers: NftTransfer[] = []
  for (const log of logs) {
    const topics = log.topics as [`0x${string}`, ...`0x${string}`[]]
    const base = { txHash: log.transactionHash!.toLowerCase(), logIndex: log.logIndex!, blockNumber: log.blockNumber! }
    if (isAddressEqual(log.address, addresses.token) && topics.length === 3) {
      const { args } = decodeEventLog({ abi: transferAbi, data: log.data, topics })
      const leg = isAddressEqual(args.to, BURN_ADDRESS) ? 'dead' : isAddressEqual(args.to, addresses.fundWallet) ? 'fund' : undefined
      if (leg) burns.push({ ...base, sender: args.from, leg, value: args.value })
    } else if (isAddressEqual(log.address, addresses.nft) && topics.length === 4) {
      const { args } = decodeEventLog({ abi: nftTransferAbi, data: log.data, topics })
      nftTransfers.push({ ...base, from: args.from, to: args.to, tokenId: args.tokenId })
    }
  }
  return { burns, nftTransfers }
}
