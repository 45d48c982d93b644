// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/// Emission schedule and split (docs/contributors/contracts.md, Emission controller, made non-upgradeable; the owner plays
/// GOVERNANCE_ROLE). Weekly emission = BASE × (225 − week)² / 225²; split in bps between the
/// mogger venue (staking), the jester venue (LP) and the treasury (which takes the rounding
/// remainder). The devnet MEGAGOONER has no minter, so `distributeEmissions` pays from this
/// contract's own MG balance (at most what it holds) instead of minting.
contract EmissionController is Ownable {
    using SafeERC20 for IERC20;

    uint256 public constant TOTAL_WEEKS = 225;
    uint256 public constant WEEK_DURATION = 1 weeks;
    uint256 public constant BASE_WEEKLY_EMISSION = 662_245 * 1e18;
    uint256 public constant MAX_SUPPLY = 50_000_000 * 1e18;
    uint256 public constant SPLIT_ADJUST_COOLDOWN = 90 days;

    address public immutable megagooner;
    address public immutable stakingContract;
    address public immutable lpStakingContract;
    address public immutable treasury;
    uint256 public immutable startTime;

    uint256 public stakingBps = 4500;
    uint256 public lpBps = 4000;
    uint256 public treasuryBps = 1500;
    uint256 public lastSplitAdjustment;
    uint256 public totalDistributed;
    mapping(uint256 => bool) public weekDistributed;
    mapping(address => bool) public distributors;

    event EmissionDistributed(uint256 indexed week, uint256 total, uint256 toStaking, uint256 toLp, uint256 toTreasury);
    event EmissionSplitAdjusted(uint256 stakingBps, uint256 lpBps, uint256 treasuryBps);
    event DistributorSet(address indexed distributor, bool allowed);

    constructor(address _megagooner, address _staking, address _lpStaking, address _treasury) Ownable(msg.sender) {
        megagooner = _megagooner;
        stakingContract = _staking;
        lpStakingContract = _lpStaking;
        treasury = _treasury;
        startTime = block.timestamp;
    }

    function setDistributor(address distributor, bool allowed) external onlyOwner {
        distributors[distributor] = allowed;
        emit DistributorSet(distributor, allowed);
    }

    function getCurrentWeek() public view returns (uint256) {
        uint256 week = (block.timestamp - startTime) / WEEK_DURATION;
        return week > TOTAL_WEEKS ? TOTAL_WEEKS : week;
    }

    function calculateWeeklyEmission(uint256 week) public pure returns (uint256) {
        if (week >= TOTAL_WEEKS) return 0;
        uint256 left = TOTAL_WEEKS - week;
        return (BASE_WEEKLY_EMISSION * left * left) / (TOTAL_WEEKS * TOTAL_WEEKS);
    }

    function getCurrentSplit() external view returns (uint256 staking, uint256 lp, uint256 treasury_) {
        return (stakingBps, lpBps, treasuryBps);
    }

    function getProjectedEmissions(uint256 weeksAhead) external view returns (uint256[] memory amounts) {
        amounts = new uint256[](weeksAhead);
        uint256 week = getCurrentWeek();
        for (uint256 i = 0; i < weeksAhead; i++) amounts[i] = calculateWeeklyEmission(week + i);
    }

    function adjustSplit(uint256 _stakingBps, uint256 _lpBps, uint256 _treasuryBps) external onlyOwner {
        require(_stakingBps + _lpBps + _treasuryBps == 10_000, "Split must total 10000");
        require(_treasuryBps >= 1000 && _treasuryBps <= 2000, "Treasury out of bounds");
        require(_stakingBps >= 4000 && _stakingBps <= 5000, "Staking out of bounds");
        require(_lpBps >= 3500 && _lpBps <= 4500, "LP out of bounds");
        require(lastSplitAdjustment == 0 || block.timestamp >= lastSplitAdjustment + SPLIT_ADJUST_COOLDOWN, "Cooldown active");
        stakingBps = _stakingBps;
        lpBps = _lpBps;
        treasuryBps = _treasuryBps;
        lastSplitAdjustment = block.timestamp;
        emit EmissionSplitAdjusted(_stakingBps, _lpBps, _treasuryBps);
    }

    /// Once per week, registered distributors only.
    function distributeEmissions() external {
        require(distributors[msg.sender], "Not a distributor");
        uint256 week = getCurrentWeek();
        require(week < TOTAL_WEEKS, "Schedule finished");
        require(!weekDistributed[week], "Already distributed this week");
        weekDistributed[week] = true;
        uint256 total = calculateWeeklyEmission(week);
        uint256 available = IERC20(megagooner).balanceOf(address(this));
        if (total > available) total = available;
        uint256 toStaking = (total * stakingBps) / 10_000;
        uint256 toLp = (total * lpBps) / 10_000;
        uint256 toTreasury = total - toStaking - toLp;
        totalDistributed += total;
        if (toStaking > 0) IERC20(megagooner).safeTransfer(stakingContract, toStaking);
        if (toLp > 0) IERC20(megagooner).safeTransfer(lpStakingContract, toLp);
        if (toTreasury > 0) IERC20(megagooner).safeTransfer(treasury, toTreasury);
        emit EmissionDistributed(week, total, toStaking, toLp, toTreasury);
    }
}
