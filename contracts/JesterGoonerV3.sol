// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC721} from "@openzeppelin/contracts/token/ERC721/IERC721.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";
import {EmissionSchedule, IPausable} from "./EmissionSchedule.sol";

/// "Jester" venue (docs/contributors/contracts.md, Staking venues): MasterChef-style LP staking; pools share one MG budget
/// by allocation points, each with its own accumulator over effective stake (NFT boost).
/// Devnet additions: `rewardRate(pid)`/`periodFinish()` views and a circuit-breaker check on stake.
contract JesterGoonerV3 is Ownable, ReentrancyGuard {
    using SafeERC20 for IERC20;

    uint256 public constant TOTAL_WEEKS = 225;
    uint256 public constant WEEK_DURATION = 1 weeks;
    uint256 public constant QUADRATIC_SUM = 3_822_225;

    address public immutable megagooner;
    address public immutable nft;
    uint256 public immutable totalBudget;
    uint256 public immutable startTime;
    address public immutable circuitBreaker;

    struct PoolInfo {
        address lpToken;
        uint256 allocPoint;
        uint256 rewardPerTokenStored;
        uint256 lastUpdateTime;
        uint256 totalStaked;
        uint256 totalEffectiveStake;
    }

    struct UserInfo {
        uint256 staked;
        uint256 effectiveStake;
        uint256 rewardPerTokenPaid;
        uint256 rewards;
    }

    PoolInfo[] public poolInfo;
    mapping(uint256 => mapping(address => UserInfo)) public userInfo;
    uint256 public totalAllocPoint;

    event Staked(address indexed user, uint256 indexed pid, uint256 amount);
    event Unstaked(address indexed user, uint256 indexed pid, uint256 amount);
    event RewardsClaimed(address indexed user, uint256 indexed pid, uint256 reward);
    event AllocPointUpdated(uint256 indexed pid, uint256 oldAlloc, uint256 newAlloc);

    constructor(
        address _megagooner,
        address _nft,
        uint256 _totalBudget,
        address[] memory _lpTokens,
        uint256[] memory _allocPoints,
        address _circuitBreaker
    ) Ownable(msg.sender) {
        require(_lpTokens.length == _allocPoints.length && _lpTokens.length > 0, "Length mismatch");
        megagooner = _megagooner;
        nft = _nft;
        totalBudget = _totalBudget;
        circuitBreaker = _circuitBreaker;
        startTime = block.timestamp;
        for (uint256 i = 0; i < _lpTokens.length; i++) {
            poolInfo.push(PoolInfo(_lpTokens[i], _allocPoints[i], 0, block.timestamp, 0, 0));
            totalAllocPoint += _allocPoints[i];
        }
    }

    function poolLength() external view returns (uint256) {
        return poolInfo.length;
    }

    function getCurrentWeek() public view returns (uint256) {
        return EmissionSchedule.currentWeek(startTime);
    }

    function getWeeklyEmission(uint256 week) public view returns (uint256) {
        return EmissionSchedule.weekly(totalBudget, week);
    }

    /// Pool tokens per second this week (devnet view; derived on the recorded contract).
    function rewardRate(uint256 pid) external view returns (uint256) {
        return (getWeeklyEmission(getCurrentWeek()) * poolInfo[pid].allocPoint) / totalAllocPoint / WEEK_DURATION;
    }

    function periodFinish() external view returns (uint256) {
        return startTime + TOTAL_WEEKS * WEEK_DURATION;
    }

    function getNFTMultiplier(address account) public view returns (uint256) {
        return EmissionSchedule.nftMultiplier(nft, account);
    }

    function _rewardPerToken(uint256 pid) private view returns (uint256) {
        PoolInfo storage p = poolInfo[pid];
        if (p.totalEffectiveStake == 0) return p.rewardPerTokenStored;
        uint256 emitted = EmissionSchedule.emittedBetween(totalBudget, startTime, p.lastUpdateTime, block.timestamp);
        return p.rewardPerTokenStored + (emitted * p.allocPoint * 1e18) / totalAllocPoint / p.totalEffectiveStake;
    }

    function earned(uint256 pid, address account) public view returns (uint256) {
        UserInfo storage u = userInfo[pid][account];
        return (u.effectiveStake * (_rewardPerToken(pid) - u.rewardPerTokenPaid)) / 1e18 + u.rewards;
    }

    function earnedAll(address account) external view returns (uint256 total) {
        for (uint256 pid = 0; pid < poolInfo.length; pid++) total += earned(pid, account);
    }

    function _updatePool(uint256 pid) private {
        PoolInfo storage p = poolInfo[pid];
        p.rewardPerTokenStored = _rewardPerToken(pid);
        p.lastUpdateTime = block.timestamp;
    }

    function _update(uint256 pid, address account) private {
        _updatePool(pid);
        UserInfo storage u = userInfo[pid][account];
        u.rewards = earned(pid, account);
        u.rewardPerTokenPaid = poolInfo[pid].rewardPerTokenStored;
    }

    function _recompute(uint256 pid, address account) private {
        UserInfo storage u = userInfo[pid][account];
        PoolInfo storage p = poolInfo[pid];
        uint256 eff = (u.staked * getNFTMultiplier(account)) / 10_000;
        p.totalEffectiveStake = p.totalEffectiveStake - u.effectiveStake + eff;
        u.effectiveStake = eff;
    }

    function stake(uint256 pid, uint256 amount) external nonReentrant {
        require(pid < poolInfo.length, "Invalid pool");
        require(amount > 0, "Cannot stake 0");
        require(IERC721(nft).balanceOf(msg.sender) >= 1, "Must hold at least 1 NFT");
        require(circuitBreaker == address(0) || !IPausable(circuitBreaker).isPaused(), "Protocol paused");
        _update(pid, msg.sender);
        IERC20(poolInfo[pid].lpToken).safeTransferFrom(msg.sender, address(this), amount);
        userInfo[pid][msg.sender].staked += amount;
        poolInfo[pid].totalStaked += amount;
        _recompute(pid, msg.sender);
        emit Staked(msg.sender, pid, amount);
    }

    function unstake(uint256 pid, uint256 amount) external nonReentrant {
        require(pid < poolInfo.length, "Invalid pool");
        require(amount > 0 && amount <= userInfo[pid][msg.sender].staked, "Invalid amount");
        _update(pid, msg.sender);
        userInfo[pid][msg.sender].staked -= amount;
        poolInfo[pid].totalStaked -= amount;
        _recompute(pid, msg.sender);
        IERC20(poolInfo[pid].lpToken).safeTransfer(msg.sender, amount);
        emit Unstaked(msg.sender, pid, amount);
    }

    function claimRewards(uint256 pid) external nonReentrant {
        require(pid < poolInfo.length, "Invalid pool");
        _update(pid, msg.sender);
        uint256 reward = userInfo[pid][msg.sender].rewards;
        require(reward > 0, "No rewards");
        userInfo[pid][msg.sender].rewards = 0;
        _pay(reward);
        emit RewardsClaimed(msg.sender, pid, reward);
    }

    function claimAllRewards() external nonReentrant {
        uint256 total;
        for (uint256 pid = 0; pid < poolInfo.length; pid++) {
            _update(pid, msg.sender);
            uint256 reward = userInfo[pid][msg.sender].rewards;
            if (reward > 0) {
                userInfo[pid][msg.sender].rewards = 0;
                total += reward;
                emit RewardsClaimed(msg.sender, pid, reward);
            }
        }
        require(total > 0, "No rewards");
        _pay(total);
    }

    function _pay(uint256 reward) private {
        uint256 available = IERC20(megagooner).balanceOf(address(this));
        uint256 paid = reward < available ? reward : available;
        if (paid > 0) IERC20(megagooner).safeTransfer(msg.sender, paid);
    }

    function refreshEffectiveStake(uint256 pid, address account) external {
        _update(pid, account);
        _recompute(pid, account);
    }

    function setAllocPoint(uint256 pid, uint256 newAlloc) external onlyOwner {
        require(pid < poolInfo.length, "Invalid pool");
        require(newAlloc > 0, "Alloc must be > 0");
        for (uint256 i = 0; i < poolInfo.length; i++) _updatePool(i);
        uint256 old = poolInfo[pid].allocPoint;
        totalAllocPoint = totalAllocPoint - old + newAlloc;
        poolInfo[pid].allocPoint = newAlloc;
        emit AllocPointUpdated(pid, old, newAlloc);
    }

    function getPoolInfo(uint256 pid)
        external
        view
        returns (address lpToken, uint256 allocPoint, uint256 totalStaked, uint256 totalEffectiveStake, uint256 weeklyEmission)
    {
        PoolInfo storage p = poolInfo[pid];
        return (p.lpToken, p.allocPoint, p.totalStaked, p.totalEffectiveStake, (getWeeklyEmission(getCurrentWeek()) * p.allocPoint) / totalAllocPoint);
    }

    function getUserInfo(uint256 pid, address account)
        external
        view
        returns (uint256 staked, uint256 effectiveStake, uint256 pendingReward, uint256 multiplier, uint256 nftCount)
    {
        UserInfo storage u = userInfo[pid][account];
        return (u.staked, u.effectiveStake, earned(pid, account), getNFTMultiplier(account), IERC721(nft).balanceOf(account));
    }

    function getGlobalStats() external view returns (uint256 currentWeek, uint256 totalWeeklyEmission, uint256 rewardsRemaining, uint256 numPools) {
        uint256 week = getCurrentWeek();
        return (week, getWeeklyEmission(week), IERC20(megagooner).balanceOf(address(this)), poolInfo.length);
    }
}
