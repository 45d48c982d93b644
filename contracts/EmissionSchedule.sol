// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC721} from "@openzeppelin/contracts/token/ERC721/IERC721.sol";

/// The 225-week quadratic schedule and the NFT boost tiers shared by both staking venues
/// (docs/contributors/contracts.md: Common constants, Staking venues).
library EmissionSchedule {
    uint256 internal constant TOTAL_WEEKS = 225;
    uint256 internal constant WEEK_DURATION = 1 weeks;
    uint256 internal constant QUADRATIC_SUM = 3_822_225;

    /// Week w's emission: budget × (225 − w)² / Σk², 0 from week 225 on.
    function weekly(uint256 budget, uint256 week) internal pure returns (uint256) {
        if (week >= TOTAL_WEEKS) return 0;
        uint256 left = TOTAL_WEEKS - week;
        return (budget * left * left) / QUADRATIC_SUM;
    }

    function currentWeek(uint256 start) internal view returns (uint256) {
        uint256 week = (block.timestamp - start) / WEEK_DURATION;
        return week > TOTAL_WEEKS ? TOTAL_WEEKS : week;
    }

    /// Tokens emitted between t0 and t1 at each week's constant per-second rate.
    function emittedBetween(uint256 budget, uint256 start, uint256 t0, uint256 t1) internal pure returns (uint256 total) {
        if (t0 < start) t0 = start;
        uint256 week = (t0 - start) / WEEK_DURATION;
        while (t0 < t1 && week < TOTAL_WEEKS) {
            uint256 weekEnd = start + (week + 1) * WEEK_DURATION;
            uint256 end = t1 < weekEnd ? t1 : weekEnd;
            total += (weekly(budget, week) * (end - t0)) / WEEK_DURATION;
            t0 = end;
            week++;
        }
    }

    /// Boost in bps: 0 NFTs → 0 (no staking, no rewards); 1–9 → 1.000x; 10–24 → 1.075x; 25+ → 1.150x.
    function nftMultiplier(address nft, address account) internal view returns (uint256) {
        uint256 count = IERC721(nft).balanceOf(account);
        if (count == 0) return 0;
        if (count < 10) return 10_000;
        if (count < 25) return 10_750;
        return 11_500;
    }
}

interface IPausable {
    function isPaused() external view returns (bool);
}
