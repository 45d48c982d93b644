// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface IIdentity {
    function ownerOf(uint256 agentId) external view returns (address);
}

/// ERC-8004 reputation registry: clients leave signed-by-sender feedback about agents.
contract ReputationRegistry {
    struct Feedback {
        int128 value;
        uint8 valueDecimals;
        string tag1;
        string tag2;
        bool isRevoked;
    }

    IIdentity public immutable identityRegistry;
    mapping(uint256 => mapping(address => Feedback[])) private _feedback;
    mapping(uint256 => address[]) private _clients;
    mapping(uint256 => mapping(address => bool)) private _isClient;

    event NewFeedback(uint256 indexed agentId, address indexed clientAddress, int128 value, uint8 valueDecimals, string tag1, string tag2, string endpoint, string feedbackURI, bytes32 feedbackHash);
    event FeedbackRevoked(uint256 indexed agentId, address indexed clientAddress, uint256 indexed feedbackIndex);

    constructor(address identityRegistry_) {
        identityRegistry = IIdentity(identityRegistry_);
    }

    function giveFeedback(
        uint256 agentId, int128 value, uint8 valueDecimals, string calldata tag1, string calldata tag2,
        string calldata endpoint, string calldata feedbackURI, bytes32 feedbackHash
    ) external {
        require(identityRegistry.ownerOf(agentId) != msg.sender, "Self-feedback not allowed");
        require(valueDecimals <= 18, "Too many decimals");
        _feedback[agentId][msg.sender].push(Feedback(value, valueDecimals, tag1, tag2, false));
        if (!_isClient[agentId][msg.sender]) {
            _isClient[agentId][msg.sender] = true;
            _clients[agentId].push(msg.sender);
        }
        emit NewFeedback(agentId, msg.sender, value, valueDecimals, tag1, tag2, endpoint, feedbackURI, feedbackHash);
    }

    function revokeFeedback(uint256 agentId, uint256 feedbackIndex) external {
        require(feedbackIndex < _feedback[agentId][msg.sender].length, "No such feedback");
        _feedback[agentId][msg.sender][feedbackIndex].isRevoked = true;
        emit FeedbackRevoked(agentId, msg.sender, feedbackIndex);
    }

    function readFeedback(uint256 agentId, address clientAddress, uint256 feedbackIndex)
        external view returns (int128 value, uint8 valueDecimals, string memory tag1, string memory tag2, bool isRevoked)
    {
        Feedback storage f = _feedback[agentId][clientAddress][feedbackIndex];
        return (f.value, f.valueDecimals, f.tag1, f.tag2, f.isRevoked);
    }

    function getClients(uint256 agentId) external view returns (address[] memory) {
        return _clients[agentId];
    }

    /// Count and average (at 18 decimals) of the non-revoked feedback matching the filters;
    /// an empty client list means every client, an empty tag matches any tag.
    function getSummary(uint256 agentId, address[] calldata clientAddresses, string calldata tag1, string calldata tag2)
        external view returns (uint256 count, int128 summaryValue, uint8 summaryDecimals)
    {
        address[] memory clients = _clients[agentId];
        if (clientAddresses.length > 0) clients = clientAddresses;
        int256 sum;
        for (uint256 i = 0; i < clients.length; i++) {
            Feedback[] storage list = _feedback[agentId][clients[i]];
            for (uint256 j = 0; j < list.length; j++) {
                Feedback storage f = list[j];
                if (f.isRevoked) continue;
                if (bytes(tag1).length > 0 && keccak256(bytes(f.tag1)) != keccak256(bytes(tag1))) continue;
                if (bytes(tag2).length > 0 && keccak256(bytes(f.tag2)) != keccak256(bytes(tag2))) continue;
                sum += int256(f.value) * int256(10 ** (18 - f.valueDecimals));
                count++;
            }
        }
        if (count == 0) return (0, 0, 18);
        return (count, int128(sum / int256(count)), 18);
    }
}
