// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface IAgentIdentity {
    function isAuthorizedOrOwner(address spender, uint256 agentId) external view returns (bool);
}

/// ERC-8004 reputation registry, written from the interface of the registries deployed at
/// 0x8004BAa1… (erc-8004-contracts, getVersion() "2.0.0"). Feedback indexes are 1-based per
/// (agent, client); an agent's owner and operators cannot rate it; getSummary needs the client
/// list (read getClients first) and answers in the most common decimals of what it averages.
contract ReputationRegistry {
    int128 private constant MAX_ABS_VALUE = 1e38;

    struct Feedback {
        int128 value;
        uint8 valueDecimals;
        bool isRevoked;
        string tag1;
        string tag2;
    }

    address private immutable _identityRegistry;
    mapping(uint256 => mapping(address => mapping(uint64 => Feedback))) private _feedback;
    mapping(uint256 => mapping(address => uint64)) private _lastIndex;
    mapping(uint256 => address[]) private _clients;
    mapping(uint256 => mapping(address => bool)) private _isClient;
    mapping(uint256 => mapping(address => mapping(uint64 => address[]))) private _responders;
    mapping(uint256 => mapping(address => mapping(uint64 => mapping(address => uint64)))) private _responseCount;

    event NewFeedback(
        uint256 indexed agentId,
        address indexed clientAddress,
        uint64 feedbackIndex,
        int128 value,
        uint8 valueDecimals,
        string indexed indexedTag1,
        string tag1,
        string tag2,
        string endpoint,
        string feedbackURI,
        bytes32 feedbackHash
    );
    event FeedbackRevoked(uint256 indexed agentId, address indexed clientAddress, uint64 indexed feedbackIndex);
    event ResponseAppended(
        uint256 indexed agentId,
        address indexed clientAddress,
        uint64 feedbackIndex,
        address indexed responder,
        string responseURI,
        bytes32 responseHash
    );

    constructor(address identityRegistry_) {
        require(identityRegistry_ != address(0), "bad identity");
        _identityRegistry = identityRegistry_;
    }

    function getIdentityRegistry() external view returns (address) {
        return _identityRegistry;
    }

    function getVersion() external pure returns (string memory) {
        return "2.0.0";
    }

    function giveFeedback(
        uint256 agentId, int128 value, uint8 valueDecimals, string memory tag1, string memory tag2,
        string memory endpoint, string memory feedbackURI, bytes32 feedbackHash
    ) external {
        require(valueDecimals <= 18, "too many decimals");
        require(value >= -MAX_ABS_VALUE && value <= MAX_ABS_VALUE, "value too large");
        // Also reverts for an agent that does not exist.
        require(!IAgentIdentity(_identityRegistry).isAuthorizedOrOwner(msg.sender, agentId), "Self-feedback not allowed");
        uint64 index = ++_lastIndex[agentId][msg.sender];
        _feedback[agentId][msg.sender][index] = Feedback(value, valueDecimals, false, tag1, tag2);
        if (!_isClient[agentId][msg.sender]) {
            _isClient[agentId][msg.sender] = true;
            _clients[agentId].push(msg.sender);
        }
        emit NewFeedback(agentId, msg.sender, index, value, valueDecimals, tag1, tag1, tag2, endpoint, feedbackURI, feedbackHash);
    }

    function revokeFeedback(uint256 agentId, uint64 feedbackIndex) external {
        require(feedbackIndex > 0, "index must be > 0");
        require(feedbackIndex <= _lastIndex[agentId][msg.sender], "index out of bounds");
        Feedback storage f = _feedback[agentId][msg.sender][feedbackIndex];
        require(!f.isRevoked, "Already revoked");
        f.isRevoked = true;
        emit FeedbackRevoked(agentId, msg.sender, feedbackIndex);
    }

    function appendResponse(uint256 agentId, address clientAddress, uint64 feedbackIndex, string calldata responseURI, bytes32 responseHash) external {
        require(feedbackIndex > 0, "index must be > 0");
        require(bytes(responseURI).length > 0, "Empty URI");
        require(feedbackIndex <= _lastIndex[agentId][clientAddress], "index out of bounds");
        if (_responseCount[agentId][clientAddress][feedbackIndex][msg.sender] == 0) _responders[agentId][clientAddress][feedbackIndex].push(msg.sender);
        _responseCount[agentId][clientAddress][feedbackIndex][msg.sender]++;
        emit ResponseAppended(agentId, clientAddress, feedbackIndex, msg.sender, responseURI, responseHash);
    }

    function getLastIndex(uint256 agentId, address clientAddress) external view returns (uint64) {
        return _lastIndex[agentId][clientAddress];
    }

    function getClients(uint256 agentId) external view returns (address[] memory) {
        return _clients[agentId];
    }

    function readFeedback(uint256 agentId, address clientAddress, uint64 feedbackIndex)
        external view returns (int128 value, uint8 valueDecimals, string memory tag1, string memory tag2, bool isRevoked)
    {
        require(feedbackIndex > 0, "index must be > 0");
        require(feedbackIndex <= _lastIndex[agentId][clientAddress], "index out of bounds");
        Feedback storage f = _feedback[agentId][clientAddress][feedbackIndex];
        return (f.value, f.valueDecimals, f.tag1, f.tag2, f.isRevoked);
    }

    /// Count and average of the clients' non-revoked feedback matching the tags (an empty tag
    /// matches any), averaged at 18 decimals and answered in the decimals most of it used.
    function getSummary(uint256 agentId, address[] memory clientAddresses, string memory tag1, string memory tag2)
        external view returns (uint64 count, int128 summaryValue, uint8 summaryValueDecimals)
    {
        require(clientAddresses.length > 0, "clientAddresses required");
        Tally memory t;
        for (uint256 i = 0; i < clientAddresses.length; i++) _tally(t, agentId, clientAddresses[i], keccak256(bytes(tag1)), keccak256(bytes(tag2)));
        if (t.count == 0) return (0, 0, 0);
        uint64 most;
        for (uint8 d = 0; d <= 18; d++) {
            if (t.decimals[d] > most) {
                most = t.decimals[d];
                summaryValueDecimals = d;
            }
        }
        count = t.count;
        summaryValue = int128((t.sum / int256(uint256(count))) / int256(10 ** (18 - uint256(summaryValueDecimals))));
    }

    struct Tally {
        int256 sum;
        uint64 count;
        uint64[19] decimals;
    }

    function _tally(Tally memory t, uint256 agentId, address client, bytes32 tag1Hash, bytes32 tag2Hash) private view {
        uint64 last = _lastIndex[agentId][client];
        for (uint64 j = 1; j <= last; j++) {
            Feedback storage f = _feedback[agentId][client][j];
            if (!_matches(f, tag1Hash, tag2Hash, false)) continue;
            t.sum += int256(f.value) * int256(10 ** (18 - uint256(f.valueDecimals)));
            t.decimals[f.valueDecimals]++;
            t.count++;
        }
    }

    struct Entry {
        address client;
        uint64 index;
    }

    function readAllFeedback(uint256 agentId, address[] memory clientAddresses, string memory tag1, string memory tag2, bool includeRevoked)
        external view returns (
            address[] memory clients, uint64[] memory feedbackIndexes, int128[] memory values, uint8[] memory valueDecimals,
            string[] memory tag1s, string[] memory tag2s, bool[] memory revokedStatuses
        )
    {
        address[] memory list = clientAddresses.length > 0 ? clientAddresses : _clients[agentId];
        return _expand(agentId, _select(agentId, list, keccak256(bytes(tag1)), keccak256(bytes(tag2)), includeRevoked));
    }

    function _select(uint256 agentId, address[] memory list, bytes32 tag1Hash, bytes32 tag2Hash, bool includeRevoked) private view returns (Entry[] memory entries) {
        uint256 total;
        for (uint256 i = 0; i < list.length; i++) {
            for (uint64 j = 1; j <= _lastIndex[agentId][list[i]]; j++) {
                if (_matches(_feedback[agentId][list[i]][j], tag1Hash, tag2Hash, includeRevoked)) total++;
            }
        }
        entries = new Entry[](total);
        uint256 k;
        for (uint256 i = 0; i < list.length; i++) {
            for (uint64 j = 1; j <= _lastIndex[agentId][list[i]]; j++) {
                if (_matches(_feedback[agentId][list[i]][j], tag1Hash, tag2Hash, includeRevoked)) entries[k++] = Entry(list[i], j);
            }
        }
    }

    function _expand(uint256 agentId, Entry[] memory entries) private view returns (
        address[] memory clients, uint64[] memory feedbackIndexes, int128[] memory values, uint8[] memory valueDecimals,
        string[] memory tag1s, string[] memory tag2s, bool[] memory revokedStatuses
    ) {
        uint256 n = entries.length;
        (clients, feedbackIndexes, values, valueDecimals) = (new address[](n), new uint64[](n), new int128[](n), new uint8[](n));
        (tag1s, tag2s, revokedStatuses) = (new string[](n), new string[](n), new bool[](n));
        for (uint256 k = 0; k < n; k++) {
            Feedback storage f = _feedback[agentId][entries[k].client][entries[k].index];
            (clients[k], feedbackIndexes[k], values[k], valueDecimals[k]) = (entries[k].client, entries[k].index, f.value, f.valueDecimals);
            (tag1s[k], tag2s[k], revokedStatuses[k]) = (f.tag1, f.tag2, f.isRevoked);
        }
    }

    /// Responses to feedback: of one entry, of every entry of a client (index 0), or of every
    /// client (the zero address); from the given responders, or from anyone when none is given.
    function getResponseCount(uint256 agentId, address clientAddress, uint64 feedbackIndex, address[] calldata responders)
        external view returns (uint64 count)
    {
        address[] memory clients;
        if (clientAddress == address(0)) {
            clients = _clients[agentId];
        } else {
            clients = new address[](1);
            clients[0] = clientAddress;
        }
        for (uint256 i = 0; i < clients.length; i++) {
            uint64 from = feedbackIndex == 0 || clientAddress == address(0) ? 1 : feedbackIndex;
            uint64 to = feedbackIndex == 0 || clientAddress == address(0) ? _lastIndex[agentId][clients[i]] : feedbackIndex;
            for (uint64 j = from; j <= to; j++) {
                address[] memory who = _responders[agentId][clients[i]][j];
                if (responders.length > 0) who = responders;
                for (uint256 r = 0; r < who.length; r++) count += _responseCount[agentId][clients[i]][j][who[r]];
            }
        }
    }

    bytes32 private constant EMPTY = keccak256("");

    /// An empty tag (its hash is EMPTY) matches any tag.
    function _matches(Feedback storage f, bytes32 tag1Hash, bytes32 tag2Hash, bool includeRevoked) private view returns (bool) {
        if (f.isRevoked && !includeRevoked) return false;
        if (tag1Hash != EMPTY && keccak256(bytes(f.tag1)) != tag1Hash) return false;
        if (tag2Hash != EMPTY && keccak256(bytes(f.tag2)) != tag2Hash) return false;
        return true;
    }
}
