// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC721} from "@openzeppelin/contracts/token/ERC721/IERC721.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

interface IGovernanceState {
    function state(uint256 proposalId) external view returns (uint8);
}

/// The 20 largest NFT holders may veto a Queued proposal (docs/contributors/contracts.md, Veto council): a member opens a
/// 2-day window, 11 yes votes veto it. Our devnet governance reads `isVetoed` in `state`.
contract NFTVetoCouncil is Ownable {
    uint256 public constant COUNCIL_SIZE = 20;
    uint256 public constant VETO_THRESHOLD = 11;
    uint256 public constant VETO_VOTING_PERIOD = 2 days;
    uint256 public constant MAX_SCAN_LIMIT = 5000;
    uint8 private constant QUEUED = 4;

    struct VetoVote {
        uint256 proposalId;
        uint256 startTime;
        uint256 yesVotes;
        uint256 noVotes;
        bool executed;
        bool expired;
    }

    address public immutable nftContract;
    address public governance;
    address[20] public councilMembers;
    mapping(address => bool) public isCouncilMember;
    mapping(uint256 => VetoVote) public vetoVotes;
    mapping(uint256 => mapping(address => bool)) public hasVotedOnVeto;
    mapping(uint256 => mapping(address => bool)) public vetoVoteChoice;

    event CouncilUpdated(address[20] members);
    event VetoVoteStarted(uint256 indexed proposalId, uint256 startTime);
    event VetoCast(uint256 indexed proposalId, address indexed voter, bool support);
    event VetoExecuted(uint256 indexed proposalId, uint256 yesVotes, uint256 noVotes);
    event VetoFailed(uint256 indexed proposalId, uint256 yesVotes, uint256 noVotes);

    constructor(address _nftContract, address _governance) Ownable(msg.sender) {
        nftContract = _nftContract;
        governance = _governance;
    }

    modifier onlyCouncil() {
        require(isCouncilMember[msg.sender], "Not a council member");
        _;
    }

    function updateGovernance(address _governance) external onlyOwner {
        governance = _governance;
    }

    /// Anyone: the top 20 owners by NFT balance among token ids 0…maxTokenId.
    function updateCouncil(uint256 maxTokenId) external {
        require(maxTokenId < MAX_SCAN_LIMIT, "Scan limit exceeded");
        address[] memory owners = new address[](maxTokenId + 1);
        uint256[] memory balances = new uint256[](maxTokenId + 1);
        uint256 n;
        for (uint256 id = 0; id <= maxTokenId; id++) {
            try IERC721(nftContract).ownerOf(id) returns (address owner_) {
                bool seen;
                for (uint256 j = 0; j < n; j++) {
                    if (owners[j] == owner_) {
                        seen = true;
                        break;
                    }
                }
                if (!seen) {
                    owners[n] = owner_;
                    balances[n] = IERC721(nftContract).balanceOf(owner_);
                    n++;
                }
            } catch {}
        }
        for (uint256 i = 0; i < n && i < COUNCIL_SIZE; i++) {
            uint256 best = i;
            for (uint256 j = i + 1; j < n; j++) if (balances[j] > balances[best]) best = j;
            (owners[i], owners[best]) = (owners[best], owners[i]);
            (balances[i], balances[best]) = (balances[best], balances[i]);
        }
        for (uint256 i = 0; i < COUNCIL_SIZE; i++) {
            if (councilMembers[i] != address(0)) isCouncilMember[councilMembers[i]] = false;
        }
        for (uint256 i = 0; i < COUNCIL_SIZE; i++) {
            address member = i < n ? owners[i] : address(0);
            councilMembers[i] = member;
            if (member != address(0)) isCouncilMember[member] = true;
        }
        emit CouncilUpdated(councilMembers);
    }

    function startVetoVote(uint256 proposalId) external onlyCouncil {
        require(vetoVotes[proposalId].startTime == 0, "Veto vote already started");
        require(IGovernanceState(governance).state(proposalId) == QUEUED, "Proposal not queued");
        vetoVotes[proposalId].proposalId = proposalId;
        vetoVotes[proposalId].startTime = block.timestamp;
        emit VetoVoteStarted(proposalId, block.timestamp);
    }

    function initializeVetoWindow(uint256 proposalId) external {
        require(msg.sender == governance, "Only governance");
        require(vetoVotes[proposalId].startTime == 0, "Veto vote already started");
        vetoVotes[proposalId].proposalId = proposalId;
        vetoVotes[proposalId].startTime = block.timestamp;
        emit VetoVoteStarted(proposalId, block.timestamp);
    }

    function castVetoVote(uint256 proposalId, bool support) external onlyCouncil {
        require(IERC721(nftContract).balanceOf(msg.sender) > 0, "No NFT");
        VetoVote storage v = vetoVotes[proposalId];
        require(v.startTime != 0, "Veto vote not started");
        require(block.timestamp <= v.startTime + VETO_VOTING_PERIOD, "Veto window closed");
        require(!hasVotedOnVeto[proposalId][msg.sender], "Already voted");
        hasVotedOnVeto[proposalId][msg.sender] = true;
        vetoVoteChoice[proposalId][msg.sender] = support;
        if (support) v.yesVotes += 1;
        else v.noVotes += 1;
        emit VetoCast(proposalId, msg.sender, support);
        if (support && !v.executed && v.yesVotes >= VETO_THRESHOLD) {
            v.executed = true;
            emit VetoExecuted(proposalId, v.yesVotes, v.noVotes);
        }
    }

    function executeVeto(uint256 proposalId) external {
        require(msg.sender == governance, "Only governance");
        VetoVote storage v = vetoVotes[proposalId];
        require(v.yesVotes >= VETO_THRESHOLD && !v.executed, "Cannot execute veto");
        v.executed = true;
        emit VetoExecuted(proposalId, v.yesVotes, v.noVotes);
    }

    function isVetoed(uint256 proposalId) external view returns (bool) {
        return vetoVotes[proposalId].yesVotes >= VETO_THRESHOLD;
    }

    function canVeto(uint256 proposalId) external view returns (bool) {
        VetoVote storage v = vetoVotes[proposalId];
        return v.startTime != 0 && block.timestamp <= v.startTime + VETO_VOTING_PERIOD && v.yesVotes < VETO_THRESHOLD;
    }

    function vetoWindowElapsed(uint256 proposalId) external view returns (bool) {
        VetoVote storage v = vetoVotes[proposalId];
        return v.startTime != 0 && block.timestamp > v.startTime + VETO_VOTING_PERIOD;
    }

    function getVetoVote(uint256 proposalId)
        external
        view
        returns (uint256 startTime, uint256 endTime, uint256 yesVotes, uint256 noVotes, bool executed, bool expired, bool canExecute)
    {
        VetoVote storage v = vetoVotes[proposalId];
        uint256 end = v.startTime == 0 ? 0 : v.startTime + VETO_VOTING_PERIOD;
        return (v.startTime, end, v.yesVotes, v.noVotes, v.executed, v.expired, v.yesVotes >= VETO_THRESHOLD && !v.executed);
    }

    function getCouncil() external view returns (address[20] memory) {
        return councilMembers;
    }

    function getCouncilMember(uint256 index) external view returns (address) {
        return councilMembers[index];
    }

    function checkCouncilMembership(address account) external view returns (bool) {
        return isCouncilMember[account];
    }

    function getVetoVoteFromAddress(uint256 proposalId, address voter) external view returns (bool) {
        return vetoVoteChoice[proposalId][voter];
    }
}
