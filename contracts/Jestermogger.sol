// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";
import {IPausable} from "./EmissionSchedule.sol";

interface IFramemogger {
    function canPropose(address account) external view returns (bool);
}

interface IVetoCouncilView {
    function isVetoed(uint256 proposalId) external view returns (bool);
}

/// Governance with the testnet-deployed shape (docs/contributors/contracts.md, Governance): constant phases of the
/// spec (1 day delay, 3 days voting, 2 days timelock, 7 days grace), proposals only by the
/// ranking's top 3 of the current or previous week, votes weighted by the current MEGAGOONER
/// balance, quorum 4 % of the MEGAGOONER supply (for + against + abstain), for > against.
/// Devnet departures: a proposal is Vetoed when the veto council reached its threshold (the
/// recorded governance never consults the council), and execute refuses while the circuit
/// breaker is paused.
contract Jestermogger is Ownable, ReentrancyGuard {
    enum ProposalState { Pending, Active, Defeated, Succeeded, Queued, Executed, Expired, Vetoed }

    uint256 public constant VOTING_DELAY = 1 days;
    uint256 public constant VOTING_PERIOD = 3 days;
    uint256 public constant TIMELOCK_PERIOD = 2 days;
    uint256 public constant GRACE_PERIOD = 7 days;
    uint256 public constant QUORUM_PERCENTAGE = 4;

    struct Proposal {
        address proposer;
        string description;
        address[] targets;
        uint256[] values;
        bytes[] calldatas;
        uint256 forVotes;
        uint256 againstVotes;
        uint256 abstainVotes;
        uint256 startTime;
        uint256 endTime;
        uint256 eta;
        bool executed;
        bool vetoed;
    }

    struct Receipt {
        bool hasVoted;
        uint8 support;
        uint256 votes;
    }

    address public immutable megagooner;
    address public immutable framemogger;
    address public immutable circuitBreaker;
    address public vetoCouncil;
    uint256 public proposalCount;
    mapping(uint256 => Proposal) private _proposals;
    mapping(uint256 => mapping(address => Receipt)) private _receipts;

    event ProposalCreated(
        uint256 indexed proposalId,
        address indexed proposer,
        address[] targets,
        uint256[] values,
        string description,
        uint256 startTime,
        uint256 endTime
    );
    event VoteCast(address indexed voter, uint256 indexed proposalId, uint8 support, uint256 votes);
    event ProposalQueued(uint256 indexed proposalId, uint256 eta);
    event ProposalExecuted(uint256 indexed proposalId);
    event ProposalVetoed(uint256 indexed proposalId);
    event VetoCouncilUpdated(address council);

    constructor(address _megagooner, address _framemogger, address _circuitBreaker) Ownable(msg.sender) {
        megagooner = _megagooner;
        framemogger = _framemogger;
        circuitBreaker = _circuitBreaker;
    }

    function setVetoCouncil(address council) external onlyOwner {
        vetoCouncil = council;
        emit VetoCouncilUpdated(council);
    }

    function propose(address[] memory targets, uint256[] memory values, bytes[] memory calldatas, string memory description)
        external
        returns (uint256 id)
    {
        require(IFramemogger(framemogger).canPropose(msg.sender), "Not a top burner");
        require(targets.length > 0 && targets.length == values.length && targets.length == calldatas.length, "Invalid proposal length");
        require(bytes(description).length > 0, "Empty description");
        id = ++proposalCount;
        Proposal storage p = _proposals[id];
        p.proposer = msg.sender;
        p.description = description;
        p.targets = targets;
        p.values = values;
        p.calldatas = calldatas;
        p.startTime = block.timestamp + VOTING_DELAY;
        p.endTime = p.startTime + VOTING_PERIOD;
        emit ProposalCreated(id, msg.sender, targets, values, description, p.startTime, p.endTime);
    }

    function castVote(uint256 proposalId, uint8 support) external {
        require(state(proposalId) == ProposalState.Active, "Voting not active");
        require(support <= 2, "Invalid support");
        Receipt storage r = _receipts[proposalId][msg.sender];
        require(!r.hasVoted, "Already voted");
        uint256 votes = IERC20(megagooner).balanceOf(msg.sender);
        require(votes > 0, "No voting power");
        r.hasVoted = true;
        r.support = support;
        r.votes = votes;
        Proposal storage p = _proposals[proposalId];
        if (support == 0) p.againstVotes += votes;
        else if (support == 1) p.forVotes += votes;
        else p.abstainVotes += votes;
        emit VoteCast(msg.sender, proposalId, support, votes);
    }

    function queue(uint256 proposalId) external {
        require(state(proposalId) == ProposalState.Succeeded, "Proposal not succeeded");
        uint256 eta = block.timestamp + TIMELOCK_PERIOD;
        _proposals[proposalId].eta = eta;
        emit ProposalQueued(proposalId, eta);
    }

    function execute(uint256 proposalId) external payable nonReentrant {
        require(state(proposalId) == ProposalState.Queued, "Proposal not queued");
        Proposal storage p = _proposals[proposalId];
        require(block.timestamp >= p.eta, "Timelock not expired");
        require(circuitBreaker == address(0) || !IPausable(circuitBreaker).isPaused(), "Protocol paused");
        p.executed = true;
        for (uint256 i = 0; i < p.targets.length; i++) {
            (bool ok, bytes memory result) = p.targets[i].call{value: p.values[i]}(p.calldatas[i]);
            if (!ok) {
                if (result.length > 0) {
                    assembly {
                        revert(add(result, 32), mload(result))
                    }
                }
                revert("Execution failed");
            }
        }
        emit ProposalExecuted(proposalId);
    }

    /// Owner veto, any time before execution (as the recorded source).
    function veto(uint256 proposalId) external onlyOwner {
        require(proposalId > 0 && proposalId <= proposalCount, "Invalid proposal");
        Proposal storage p = _proposals[proposalId];
        require(!p.executed, "Already executed");
        p.vetoed = true;
        emit ProposalVetoed(proposalId);
    }

    function quorum() public view returns (uint256) {
        return (IERC20(megagooner).totalSupply() * QUORUM_PERCENTAGE) / 100;
    }

    function state(uint256 proposalId) public view returns (ProposalState) {
        require(proposalId > 0 && proposalId <= proposalCount, "Invalid proposal");
        Proposal storage p = _proposals[proposalId];
        // Executed first: a council window opened while Queued may still collect votes after execution.
        if (p.executed) return ProposalState.Executed;
        if (p.vetoed || (vetoCouncil != address(0) && IVetoCouncilView(vetoCouncil).isVetoed(proposalId))) return ProposalState.Vetoed;
        if (block.timestamp < p.startTime) return ProposalState.Pending;
        if (block.timestamp <= p.endTime) return ProposalState.Active;
        if (p.forVotes <= p.againstVotes || p.forVotes + p.againstVotes + p.abstainVotes < quorum()) return ProposalState.Defeated;
        if (p.eta == 0) return ProposalState.Succeeded;
        if (block.timestamp > p.eta + GRACE_PERIOD) return ProposalState.Expired;
        return ProposalState.Queued;
    }

    function getProposal(uint256 proposalId)
        external
        view
        returns (
            address proposer,
            string memory description,
            uint256 forVotes,
            uint256 againstVotes,
            uint256 abstainVotes,
            uint256 startTime,
            uint256 endTime,
            uint256 eta,
            bool executed,
            bool vetoed,
            uint8 currentState
        )
    {
        ProposalState s = state(proposalId);
        Proposal storage p = _proposals[proposalId];
        return (p.proposer, p.description, p.forVotes, p.againstVotes, p.abstainVotes, p.startTime, p.endTime, p.eta, p.executed, s == ProposalState.Vetoed, uint8(s));
    }

    function getActions(uint256 proposalId) external view returns (address[] memory targets, uint256[] memory values, bytes[] memory calldatas) {
        Proposal storage p = _proposals[proposalId];
        return (p.targets, p.values, p.calldatas);
    }

    function getReceipt(uint256 proposalId, address voter) external view returns (bool hasVoted, uint8 support, uint256 votes) {
        Receipt storage r = _receipts[proposalId][voter];
        return (r.hasVoted, r.support, r.votes);
    }

    receive() external payable {}
}
