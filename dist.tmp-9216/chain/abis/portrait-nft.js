import { parseAbi } from 'viem';
/** The portrait NFT (ERC-721): the minter key mints, readers ask owner and metadata URI. */
export const portraitNftAbi = parseAbi([
    'function mint(address to, string uri) returns (uint256)',
    'function ownerOf(uint256) view returns (address)',
    'function tokenURI(uint256) view returns (string)',
    'event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)',
]);
//# sourceMappingURL=portrait-nft.js.map