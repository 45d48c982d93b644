// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";
import {ERC721URIStorage} from "@openzeppelin/contracts/token/ERC721/extensions/ERC721URIStorage.sol";

/// ERC-8004 identity registry: each agent is an ERC-721 token whose URI is its registration file.
contract IdentityRegistry is ERC721URIStorage {
    uint256 private _lastId;
    mapping(uint256 => address) private _wallets;
    mapping(uint256 => mapping(string => bytes)) private _metadata;

    event Registered(uint256 indexed agentId, string agentURI, address indexed owner);
    event MetadataSet(uint256 indexed agentId, string indexed indexedKey, string key, bytes value);

    constructor() ERC721("AgentIdentity", "AGENT") {}

    function register() external returns (uint256) {
        return _register("");
    }

    function register(string calldata agentURI) external returns (uint256) {
        return _register(agentURI);
    }

    function _register(string memory agentURI) private returns (uint256 agentId) {
        agentId = ++_lastId;
        _mint(msg.sender, agentId);
        if (bytes(agentURI).length > 0) _setTokenURI(agentId, agentURI);
        emit Registered(agentId, agentURI, msg.sender);
    }

    function setAgentURI(uint256 agentId, string calldata agentURI) external {
        require(ownerOf(agentId) == msg.sender, "Not the agent owner");
        _setTokenURI(agentId, agentURI);
    }

    function setAgentWallet(uint256 agentId, address wallet) external {
        require(ownerOf(agentId) == msg.sender, "Not the agent owner");
        _wallets[agentId] = wallet;
    }

    /// The agent's payment wallet; its owner until one is set.
    function getAgentWallet(uint256 agentId) external view returns (address) {
        address wallet = _wallets[agentId];
        return wallet == address(0) ? ownerOf(agentId) : wallet;
    }

    function setMetadata(uint256 agentId, string calldata key, bytes calldata value) external {
        require(ownerOf(agentId) == msg.sender, "Not the agent owner");
        _metadata[agentId][key] = value;
        emit MetadataSet(agentId, key, key, value);
    }

    function getMetadata(uint256 agentId, string calldata key) external view returns (bytes memory) {
        return _metadata[agentId][key];
    }
}
