// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";
import {ERC721URIStorage} from "@openzeppelin/contracts/token/ERC721/extensions/ERC721URIStorage.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {SignatureChecker} from "@openzeppelin/contracts/utils/cryptography/SignatureChecker.sol";

/// ERC-8004 identity registry, written from the interface of the registries deployed at
/// 0x8004A169… (erc-8004-contracts, getVersion() "2.0.0"): each agent is an ERC-721 token whose
/// URI is its registration file. Ids start at 0, as there. The reserved metadata key
/// "agentWallet" is the owner at registration, changed only with the new wallet's EIP-712
/// consent, and cleared when the agent changes hands.
contract IdentityRegistry is ERC721URIStorage, EIP712 {
    struct MetadataEntry {
        string metadataKey;
        bytes metadataValue;
    }

    bytes32 private constant AGENT_WALLET_SET_TYPEHASH =
        keccak256("AgentWalletSet(uint256 agentId,address newWallet,address owner,uint256 deadline)");
    bytes32 private constant AGENT_WALLET_KEY = keccak256("agentWallet");
    uint256 private constant MAX_DEADLINE_DELAY = 5 minutes;

    uint256 private _nextId;
    mapping(uint256 => mapping(string => bytes)) private _metadata;

    event Registered(uint256 indexed agentId, string agentURI, address indexed owner);
    event MetadataSet(uint256 indexed agentId, string indexed indexedMetadataKey, string metadataKey, bytes metadataValue);
    event URIUpdated(uint256 indexed agentId, string newURI, address indexed updatedBy);

    constructor() ERC721("AgentIdentity", "AGENT") EIP712("ERC8004IdentityRegistry", "1") {}

    function register() external returns (uint256 agentId) {
        agentId = _register("", false);
    }

    function register(string calldata agentURI) external returns (uint256 agentId) {
        agentId = _register(agentURI, true);
    }

    function register(string calldata agentURI, MetadataEntry[] calldata metadata) external returns (uint256 agentId) {
        agentId = _register(agentURI, true);
        for (uint256 i = 0; i < metadata.length; i++) {
            _setMetadata(agentId, metadata[i].metadataKey, metadata[i].metadataValue);
        }
    }

    function _register(string memory agentURI, bool withURI) private returns (uint256 agentId) {
        agentId = _nextId++;
        _safeMint(msg.sender, agentId);
        if (withURI) _setTokenURI(agentId, agentURI);
        _metadata[agentId]["agentWallet"] = abi.encodePacked(msg.sender);
        emit Registered(agentId, agentURI, msg.sender);
        emit MetadataSet(agentId, "agentWallet", "agentWallet", abi.encodePacked(msg.sender));
    }

    function setAgentURI(uint256 agentId, string calldata newURI) external {
        _requireAuthorized(agentId);
        _setTokenURI(agentId, newURI);
        emit URIUpdated(agentId, newURI, msg.sender);
    }

    function getMetadata(uint256 agentId, string calldata metadataKey) external view returns (bytes memory) {
        return _metadata[agentId][metadataKey];
    }

    function setMetadata(uint256 agentId, string calldata metadataKey, bytes calldata metadataValue) external {
        _requireAuthorized(agentId);
        _setMetadata(agentId, metadataKey, metadataValue);
    }

    function _setMetadata(uint256 agentId, string memory key, bytes memory value) private {
        require(keccak256(bytes(key)) != AGENT_WALLET_KEY, "reserved key");
        _metadata[agentId][key] = value;
        emit MetadataSet(agentId, key, key, value);
    }

    /// The agent's payment wallet: its owner from registration until changed or cleared.
    function getAgentWallet(uint256 agentId) external view returns (address) {
        bytes memory wallet = _metadata[agentId]["agentWallet"];
        return wallet.length == 20 ? address(bytes20(wallet)) : address(0);
    }

    /// The new wallet consents with an EIP-712 AgentWalletSet signature (or ERC-1271), valid at most five minutes.
    function setAgentWallet(uint256 agentId, address newWallet, uint256 deadline, bytes calldata signature) external {
        address owner = _requireAuthorized(agentId);
        require(newWallet != address(0), "bad wallet");
        require(block.timestamp <= deadline, "expired");
        require(deadline <= block.timestamp + MAX_DEADLINE_DELAY, "deadline too far");
        bytes32 digest = _hashTypedDataV4(keccak256(abi.encode(AGENT_WALLET_SET_TYPEHASH, agentId, newWallet, owner, deadline)));
        require(SignatureChecker.isValidSignatureNow(newWallet, digest, signature), "invalid wallet sig");
        _metadata[agentId]["agentWallet"] = abi.encodePacked(newWallet);
        emit MetadataSet(agentId, "agentWallet", "agentWallet", abi.encodePacked(newWallet));
    }

    function unsetAgentWallet(uint256 agentId) external {
        _requireAuthorized(agentId);
        _metadata[agentId]["agentWallet"] = "";
        emit MetadataSet(agentId, "agentWallet", "agentWallet", "");
    }

    /// Owner or approved operator of the agent; reverts (ERC721NonexistentToken) for an unknown id.
    function isAuthorizedOrOwner(address spender, uint256 agentId) external view returns (bool) {
        return _isAuthorized(ownerOf(agentId), spender, agentId);
    }

    function getVersion() external pure returns (string memory) {
        return "2.0.0";
    }

    function _requireAuthorized(uint256 agentId) private view returns (address owner) {
        owner = ownerOf(agentId);
        require(_isAuthorized(owner, msg.sender, agentId), "Not authorized");
    }

    /// A transfer (not a mint or burn) clears the agent wallet: the new owner sets its own.
    function _update(address to, uint256 tokenId, address auth) internal override returns (address) {
        address from = _ownerOf(tokenId);
        if (from != address(0) && to != address(0)) {
            _metadata[tokenId]["agentWallet"] = "";
            emit MetadataSet(tokenId, "agentWallet", "agentWallet", "");
        }
        return super._update(to, tokenId, auth);
    }
}
