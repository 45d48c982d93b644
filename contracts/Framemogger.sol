// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC721} from "@openzeppelin/contracts/token/ERC721/IERC721.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";

interface IBurnableERC20 {
    function burnFrom(address account, uint256 amount) external;
}

/// Weekly burner ranking (docs/contributors/contracts.md, Ranking): NFT holders send MEGACHAD to the fund and burn
/// MEGAGOONER at 4 : 1; the top 3 of the current or previous week may propose in governance.
contract Framemogger {
    using SafeERC20 for IERC20;

    uint256 public constant WEEK_DURATION = 7 days;
    uint256 public constant MEGAGOONER_RATIO = 4;

    address public immutable megachad;
    address public immutable megagooner;
    address public immutable nft;
    address public immutable trenFund;
    uint256 public immutable genesisTimestamp;

    struct WeekData {
        uint256 totalSent;
        uint256 uniqueSenders;
    }

    mapping(uint256 => WeekData) public weekData;
    mapping(uint256 => mapping(address => uint256)) public weeklyUserSent;
    mapping(address => uint256) public totalUserSent;
    mapping(uint256 => address[3]) private _top3;
    mapping(uint256 => uint256[3]) private _top3Amounts;
    uint256 public totalSentAllTime;
    uint256 public totalMegagoonerBurned;

    event MegachadSent(address indexed sender, uint256 megachadAmount, uint256 megagoonerBurned, uint256 week);
    event TopBurnersUpdated(uint256 indexed week, address[3] top3, uint256[3] amounts);

    constructor(address _megachad, address _megagooner, address _nft, address _trenFund) {
        megachad = _megachad;
        megagooner = _megagooner;
        nft = _nft;
        trenFund = _trenFund;
        genesisTimestamp = block.timestamp;
    }

    function getCurrentWeek() public view returns (uint256) {
        return (block.timestamp - genesisTimestamp) / WEEK_DURATION;
    }

    function getTimeRemaining() public view returns (uint256) {
        uint256 end = genesisTimestamp + (getCurrentWeek() + 1) * WEEK_DURATION;
        return end - block.timestamp;
    }

    function getBurnRequirements(uint256 amount) external pure returns (uint256 megagoonerNeeded) {
        return amount / MEGAGOONER_RATIO;
    }

    function sendMegachad(uint256 amount) external {
        require(amount > 0, "Amount must be > 0");
        require(IERC721(nft).balanceOf(msg.sender) >= 1, "Must hold a MegaCHAD NFT");
        uint256 mgBurn = amount / MEGAGOONER_RATIO;
        require(mgBurn > 0, "Amount too small");
        IERC20(megachad).safeTransferFrom(msg.sender, trenFund, amount);
        IBurnableERC20(megagooner).burnFrom(msg.sender, mgBurn);

        uint256 week = getCurrentWeek();
        if (weeklyUserSent[week][msg.sender] == 0) weekData[week].uniqueSenders += 1;
        weeklyUserSent[week][msg.sender] += amount;
        weekData[week].totalSent += amount;
        totalUserSent[msg.sender] += amount;
        totalSentAllTime += amount;
        totalMegagoonerBurned += mgBurn;
        emit MegachadSent(msg.sender, amount, mgBurn, week);
        if (_updateTop3(week, msg.sender, weeklyUserSent[week][msg.sender])) {
            emit TopBurnersUpdated(week, _top3[week], _top3Amounts[week]);
        }
    }

    function _updateTop3(uint256 week, address sender, uint256 total) private returns (bool) {
        address[3] storage who = _top3[week];
        uint256[3] storage amt = _top3Amounts[week];
        bool changed;
        bool found;
        for (uint256 i = 0; i < 3; i++) {
            if (who[i] == sender) {
                amt[i] = total;
                found = true;
                changed = true;
                break;
            }
        }
        if (!found && total > amt[2]) {
            who[2] = sender;
            amt[2] = total;
            changed = true;
        }
        if (!changed) return false;
        for (uint256 i = 0; i < 3; i++) {
            for (uint256 j = i + 1; j < 3; j++) {
                if (amt[j] > amt[i]) {
                    (amt[i], amt[j]) = (amt[j], amt[i]);
                    (who[i], who[j]) = (who[j], who[i]);
                }
            }
        }
        return true;
    }

    function getWeekTop3(uint256 week) external view returns (address[3] memory, uint256[3] memory) {
        return (_top3[week], _top3Amounts[week]);
    }

    function getWeekStats(uint256 week) external view returns (uint256 totalSent, uint256 uniqueSenders, uint256 timeRemaining) {
        uint256 current = getCurrentWeek();
        return (weekData[week].totalSent, weekData[week].uniqueSenders, week == current ? getTimeRemaining() : 0);
    }

    function canPropose(address account) external view returns (bool) {
        if (account == address(0)) return false;
        uint256 week = getCurrentWeek();
        if (_inTop3(week, account)) return true;
        return week > 0 && _inTop3(week - 1, account);
    }

    function _inTop3(uint256 week, address account) private view returns (bool) {
        address[3] storage who = _top3[week];
        return who[0] == account || who[1] == account || who[2] == account;
    }
}
