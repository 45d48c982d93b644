// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/// Protocol pause (docs/contributors/contracts.md, Circuit breaker, made non-upgradeable; the owner plays ADMIN_ROLE):
/// 5 guardians; 3 yes votes pause, 4 yes votes unpause; anyone may auto-unpause 7 days after
/// the pause; the owner may unpause at once. On the devnet the pair, both staking venues
/// (stake) and governance (execute) refuse with "Protocol paused" while paused.
contract CircuitBreaker is Ownable {
    uint256 public constant AUTO_UNPAUSE_DURATION = 7 days;
    uint256 public constant GUARDIAN_COUNT = 5;
    uint256 public constant PAUSE_THRESHOLD = 3;
    uint256 public constant UNPAUSE_THRESHOLD = 4;

    address[5] private _guardians;
    mapping(address => bool) public isGuardian;
    bool public paused;
    uint256 public pausedAt;
    uint256 public pauseYesVotes;
    uint256 public pauseNoVotes;
    uint256 public unpauseYesVotes;
    uint256 public unpauseNoVotes;
    /// Vote rounds: a new round starts at every pause and unpause.
    uint256 public round;
    mapping(uint256 => mapping(address => bool)) private _votedPause;
    mapping(uint256 => mapping(address => bool)) private _votedUnpause;

    event ProtocolPaused(address indexed guardian, uint256 timestamp);
    event ProtocolUnpaused(address indexed by, uint256 timestamp);
    event PauseVoteCast(address indexed guardian, bool support);
    event UnpauseVoteCast(address indexed guardian, bool support);
    event GuardiansUpdated(address[5] guardians);
    event AutoUnpauseExecuted(uint256 timestamp);

    constructor(address[5] memory guardians_) Ownable(msg.sender) {
        _setGuardians(guardians_);
    }

    modifier onlyGuardian() {
        require(isGuardian[msg.sender], "Not a guardian");
        _;
    }

    function _setGuardians(address[5] memory guardians_) private {
        for (uint256 i = 0; i < GUARDIAN_COUNT; i++) if (_guardians[i] != address(0)) isGuardian[_guardians[i]] = false;
        for (uint256 i = 0; i < GUARDIAN_COUNT; i++) {
            require(guardians_[i] != address(0), "Zero guardian");
            require(!isGuardian[guardians_[i]], "Duplicate guardian");
            isGuardian[guardians_[i]] = true;
        }
        _guardians = guardians_;
        emit GuardiansUpdated(guardians_);
    }

    function updateGuardians(address[5] memory guardians_) external onlyOwner {
        _setGuardians(guardians_);
    }

    function votePause(bool support) external onlyGuardian {
        require(!paused, "Already paused");
        require(!_votedPause[round][msg.sender], "Already voted");
        _votedPause[round][msg.sender] = true;
        if (support) pauseYesVotes++;
        else pauseNoVotes++;
        emit PauseVoteCast(msg.sender, support);
        if (pauseYesVotes >= PAUSE_THRESHOLD) {
            paused = true;
            pausedAt = block.timestamp;
            _newRound();
            emit ProtocolPaused(msg.sender, block.timestamp);
        }
    }

    function voteUnpause(bool support) external onlyGuardian {
        require(paused, "Not paused");
        require(!_votedUnpause[round][msg.sender], "Already voted");
        _votedUnpause[round][msg.sender] = true;
        if (support) unpauseYesVotes++;
        else unpauseNoVotes++;
        emit UnpauseVoteCast(msg.sender, support);
        if (unpauseYesVotes >= UNPAUSE_THRESHOLD) _unpause(msg.sender);
    }

    function autoUnpause() external {
        require(paused, "Not paused");
        require(block.timestamp >= pausedAt + AUTO_UNPAUSE_DURATION, "Too early");
        _unpause(msg.sender);
        emit AutoUnpauseExecuted(block.timestamp);
    }

    function emergencyUnpause() external onlyOwner {
        require(paused, "Not paused");
        _unpause(msg.sender);
    }

    function _unpause(address by) private {
        paused = false;
        pausedAt = 0;
        _newRound();
        emit ProtocolUnpaused(by, block.timestamp);
    }

    function _newRound() private {
        round++;
        pauseYesVotes = 0;
        pauseNoVotes = 0;
        unpauseYesVotes = 0;
        unpauseNoVotes = 0;
    }

    function isPaused() external view returns (bool) {
        return paused;
    }

    function getGuardians() external view returns (address[5] memory) {
        return _guardians;
    }

    function checkGuardianStatus(address account) external view returns (bool) {
        return isGuardian[account];
    }

    function hasVotedPause(address account) external view returns (bool) {
        return _votedPause[round][account];
    }

    function hasVotedUnpause(address account) external view returns (bool) {
        return _votedUnpause[round][account];
    }

    function timeUntilAutoUnpause() external view returns (uint256) {
        if (!paused) return 0;
        uint256 at = pausedAt + AUTO_UNPAUSE_DURATION;
        return block.timestamp >= at ? 0 : at - block.timestamp;
    }

    function getPauseStatus()
        external
        view
        returns (
            bool isPaused_,
            uint256 pausedAt_,
            uint256 autoUnpauseTime,
            uint256 pauseYesVotes_,
            uint256 pauseNoVotes_,
            uint256 unpauseYesVotes_,
            uint256 unpauseNoVotes_
        )
    {
        return (paused, pausedAt, paused ? pausedAt + AUTO_UNPAUSE_DURATION : 0, pauseYesVotes, pauseNoVotes, unpauseYesVotes, unpauseNoVotes);
    }
}
