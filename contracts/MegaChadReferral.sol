// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/// Referral burns: the registered agent is paid out of the fund's half (10 % of it by default).
contract MegaChadReferral is Ownable {
    IERC20 public immutable megachad;
    address public immutable burnAddress;
    address public immutable trenFundWallet;
    uint256 public immutable burnAmount;
    uint256 public referralBps = 1000;

    mapping(address => bool) public registeredAgents;
    mapping(address => uint256) public referralCount;
    mapping(address => uint256) public referralEarnings;

    event AgentRegistered(address indexed agent);
    event ReferralBurn(address indexed burner, address indexed referrer, uint256 burnedAmount, uint256 trenAmount, uint256 referralReward);
    event ReferralBpsUpdated(uint256 oldBps, uint256 newBps);

    constructor(address megachad_, address burnAddress_, address trenFundWallet_, uint256 burnAmount_) Ownable(msg.sender) {
        megachad = IERC20(megachad_);
        burnAddress = burnAddress_;
        trenFundWallet = trenFundWallet_;
        burnAmount = burnAmount_;
    }

    function registerAgent() external {
        registeredAgents[msg.sender] = true;
        emit AgentRegistered(msg.sender);
    }

    function isAgent(address agent) external view returns (bool) {
        return registeredAgents[agent];
    }

    function getAgentStats(address agent) external view returns (uint256 count, uint256 earnings, bool registered) {
        return (referralCount[agent], referralEarnings[agent], registeredAgents[agent]);
    }

    function burnWithReferral(address referrer) external {
        require(registeredAgents[referrer], "Referrer not registered");
        require(referrer != msg.sender, "Cannot refer yourself");
        uint256 half = burnAmount / 2;
        uint256 other = burnAmount - half;
        uint256 reward = (other * referralBps) / 10000;
        uint256 fundAmount = other - reward;
        require(megachad.transferFrom(msg.sender, burnAddress, half), "Burn transfer failed");
        require(megachad.transferFrom(msg.sender, trenFundWallet, fundAmount), "Tren fund transfer failed");
        require(megachad.transferFrom(msg.sender, referrer, reward), "Referral transfer failed");
        referralCount[referrer] += 1;
        referralEarnings[referrer] += reward;
        emit ReferralBurn(msg.sender, referrer, half, fundAmount, reward);
    }

    function burn() external {
        uint256 half = burnAmount / 2;
        require(megachad.transferFrom(msg.sender, burnAddress, half), "Burn transfer failed");
        require(megachad.transferFrom(msg.sender, trenFundWallet, burnAmount - half), "Tren fund transfer failed");
    }

    function setReferralBps(uint256 bps) external onlyOwner {
        require(bps <= 2000, "Max 20%");
        emit ReferralBpsUpdated(referralBps, bps);
        referralBps = bps;
    }
}
