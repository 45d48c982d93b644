// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";
import {ERC721URIStorage} from "@openzeppelin/contracts/token/ERC721/extensions/ERC721URIStorage.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/// Devnet stand-in of the looksmaxx NFT: only the owner (the minter key) mints; IDs from 0.
contract MegaCHADNFT is ERC721URIStorage, Ownable {
    uint256 private _nextId;

    constructor() ERC721("MegaCHAD Looksmaxx", "MCHADNFT") Ownable(msg.sender) {}

    function mint(address to, string memory uri) external onlyOwner returns (uint256) {
        require(to != address(0), "Mint to zero address");
        require(bytes(uri).length > 0, "Empty token URI");
        uint256 id = _nextId++;
        _mint(to, id);
        _setTokenURI(id, uri);
        return id;
    }

    /// Devnet convenience, not on the real contract: mints counts[i] tokens to tos[i], all with
    /// one URI, in one transaction (the DeFi seed).
    function mintBatch(address[] calldata tos, uint256[] calldata counts, string calldata uri) external onlyOwner {
        require(tos.length == counts.length, "Length mismatch");
        require(bytes(uri).length > 0, "Empty token URI");
        for (uint256 i = 0; i < tos.length; i++) {
            require(tos[i] != address(0), "Mint to zero address");
            for (uint256 j = 0; j < counts[i]; j++) {
                uint256 id = _nextId++;
                _mint(tos[i], id);
                _setTokenURI(id, uri);
            }
        }
    }

    /// Devnet convenience, not on the real contract: how many tokens exist.
    function totalMinted() external view returns (uint256) {
        return _nextId;
    }
}
