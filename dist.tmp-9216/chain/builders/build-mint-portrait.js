import { encodeFunctionData } from 'viem';
import { portraitNftAbi } from "../abis/portrait-nft.js";
/** Calldata of the portrait NFT's mint(to, ipfs://metadataCid). */
export function buildMintPortrait(args) {
    return encodeFunctionData({ abi: portraitNftAbi, functionName: 'mint', args: [args.to, `ipfs://${args.metadataCid}`] });
}
//# sourceMappingURL=build-mint-portrait.js.map