import { getAbiItem, parseAbi } from 'viem';
/**
 * The service token's (and USDm's) ERC-20 Transfer event, on its own: the portrait NFT's
 * Transfer shares its topic0 but indexes the third argument, so decoding a log picks the ABI
 * by topic count.
 */
export const tokenTransferAbi = parseAbi(['event Transfer(address indexed from, address indexed to, uint256 value)']);
export const tokenTransferEvent = getAbiItem({ abi: tokenTransferAbi, name: 'Transfer' });
//# sourceMappingURL=token.js.map