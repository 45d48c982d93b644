import { encodeFunctionData } from 'viem'
import { portraitNftAbi } from '../abis/portrait-nft.ts'

/** Calldata of the portrait NFT's mint(to, ipfs://metadataCid). */
export function buildMintPortrait(args: { to: `0x${string}`; metadataCid: string }): `0x${string}` {
  return encodeFunctionData({ abi: portraitNftAbi, functionName: 'mint', args: [args.to, `ipfs://${args.metadataCid}`] })
}
