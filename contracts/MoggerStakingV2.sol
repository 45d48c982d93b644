// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC721} from "@openzeppelin/contracts/token/ERC721/IERC721.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";
import {EmissionSchedule, IPausable} from "./EmissionSchedule.sol";

/// "Mogger" venue (docs/contributors/contracts.md, Staking venues): stake MEGACHAD, earn MEGAGOONER under the 225-week
/// quadratic schedule, split pro rata by effective stake = staked × NFT boost / 10000.
/// Devnet additions: `rewardRate()`/`periodFinish()` views and a circuit-breaker check on stake.
contract MoggerStakingV2 is Ownable, ReentrancyGuard {
    using SafeERC20 for IERC20;

    uint256 public constant TOTAL_WEEKS = 225;
    uint256 public constant WEEK_DURATION = 1 weeks;
    uint256 public constant QUADRATIC_SUM = 3_822_225;

    address public immutable megachad;
    address public immutable megagooner;
    address public immutable nft;
    uint256 public immutable totalBudget;
    uint256 public immutable startTime;
    address public immutable circuitBreaker;

    struct Staker {
        uint256 staked;
        uint256 effectiveStake;
        uint256 rewardPerTokenPaid;
        uint256 rewards;
    }

    mapping(address => Staker) public stakers;
    uint256 public totalStaked;
    uint256 public totalEffectiveStake;
    uint256 public rewardPerTokenStored;
    uint256 public lastUpdateTime;

    event Staked(address indexed user, uint256 amount);
    event Unstaked(address indexed user, uint256 amount);
    event RewardsClaimed(address indexed user, uint256 reward);

    constructor(address _megachad, address _megagooner, address _nft, uint256 _totalBudget, address _circuitBreaker) Ownable(msg.sender) {
        megachad = _megachad;
        megagooner = _megagooner;
        nft = _nft;
        totalBudget = _totalBudget;
        circuitBreaker = _circuitBreaker;
        startTime = block.timestamp;
        lastUpdateTime = block.timestamp;
    }

    function getCurrentWeek() public view returns (uint256) {
        return EmissionSchedule.currentWeek(startTime);
    }

    function getWeeklyEmission(uint256 week) public view returns (uint256) {
        return EmissionSchedule.weekly(totalBudget, week);
    }

    /// Tokens per second this week (devnet view; derived on the recorded contract).
    function rewardRate() external view returns (uint256) {
        return getWeeklyEmission(getCurrentWeek()) / WEEK_DURATION;
    }

    function periodFinish() external view returns (uint256) {
        return startTime + TOTAL_WEEKS * WEEK_DURATION;
    }

    function getNFTMultiplier(address account) public view returns (uint256) {
        return EmissionSchedule.nftMultiplier(nft, account);
    }

    function rewardPerToken() public view returns (uint256) {
        if (totalEffectiveStake == 0) return rewardPerTokenStored;
        uint256 emitted = EmissionSchedule.emittedBetween(totalBudget, startTime, lastUpdateTime, block.timestamp);
        return rewardPerTokenStored + (emitted * 1e18) / totalEffectiveStake;
    }

    function earned(address account) public view returns (uint256) {
        Staker storage s = stakers[account];
        return (s.effectiveStake * (rewardPerToken() - s.rewardPerTokenPaid)) / 1e18 + s.rewards;
    }

    function _update(address account) private {
        rewardPerTokenStored = rewardPerToken();
        lastUpdateTime = block.timestamp;
        Staker storage s = stakers[account];
        s.rewards = earned(account);
        s.rewardPerTokenPaid = rewardPerTokenStored;
    }

    function _recompute(address account) private {
        Staker storage s = stakers[account];
        uint256 eff = (s.staked * getNFTMultiplier(account)) / 10_000;
        totalEffectiveStake = totalEffectiveStake - s.effectiveStake + eff;
        s.effectiveStake = eff;
    }

    function stake(uint256 amount) external nonReentrant {
        require(amount > 0, "Cannot stake 0");
        require(IERC721(nft).balanceOf(msg.sender) >= 1, "Must hold at least 1 NFT");
        require(circuitBreaker == address(0) || !IPausable(circuitBreaker).isPaused(), "Protocol paused");
        _update(msg.sender);
        IERC20(megachad).safeTransferFrom(msg.sender, address(this), amount);
        stakers[msg.sender].staked += amount;
        totalStaked += amount;
        _recompute(msg.sender);
        emit Staked(msg.sender, amount);
    }

    function unstake(uint256 amount) external nonReentrant {
        require(amount > 0 && amount <= stakers[msg.sender].staked, "Invalid amount");
        _update(msg.sender);
        stakers[msg.sender].staked -= amount;
        totalStaked -= amount;
        _recompute(msg.sender);
        IERC20(megachad).safeTransfer(msg.sender, amount);
        emit Unstaked(msg.sender, amount);
    }

    function claimRewards() external nonReentrant {
        _update(msg.sender);
        uint256 reward = stakers[msg.sender].rewards;
        require(reward > 0, "No rewards");
        stakers[msg.sender].rewards = 0;
        uint256 available = IERC20(megagooner).balanceOf(address(this));
        uint256 paid = reward < available ? reward : available;
        if (paid > 0) IERC20(megagooner).safeTransfer(msg.sender, paid);
        emit RewardsClaimed(msg.sender, paid);
    }

    function refreshEffectiveStake(address account) external {
        _update(account);
        _recompute(account);
    }

    function getStakerInfo(address account)
        external
        view
        returns (uint256 staked, uint256 effectiveStake, uint256 pendingReward, uint256 multiplier, uint256 nftCount)
    {
        Staker storage s = stakers[account];
        return (s.staked, s.effectiveStake, earned(account), getNFTMultiplier(account), IERC721(nft).balanceOf(account));
    }

    function getGlobalStats()
        external
        view
        returns (uint256 _totalStaked, uint256 _totalEffectiveStake, uint256 currentWeek, uint256 weeklyEmission, uint256 rewardsRemaining)
    {
        uint256 week = getCurrentWeek();
        return (totalStaked, totalEffectiveStake, week, getWeeklyEmission(week), IERC20(megagooner).balanceOf(address(this)));
    }
}
