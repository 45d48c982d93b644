// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";

/// Test fixture, not deployed by the devnet: a pair that takes its swap input the way the
/// recorded MegaChadLP does (docs/contributors/contracts.md, Pair), pulling it with transferFrom and ignoring tokens
/// transferred to it beforehand. It has no `INPUT_STYLE()`, so readers take it as 'pull'.
contract PullStyleLP is ERC20, ReentrancyGuard {
    using SafeERC20 for IERC20;

    address public immutable tokenA;
    address public immutable tokenB;
    uint256 public reserveA;
    uint256 public reserveB;

    event Mint(address indexed sender, uint256 amountA, uint256 amountB, uint256 liquidity);
    event Swap(address indexed sender, uint256 amountAIn, uint256 amountBIn, uint256 amountAOut, uint256 amountBOut);

    constructor(address _tokenA, address _tokenB) ERC20("PULL-LP", "PULL-LP") {
        tokenA = _tokenA;
        tokenB = _tokenB;
    }

    function getReserves() external view returns (uint256, uint256) {
        return (reserveA, reserveB);
    }

    function addLiquidity(uint256 amountA, uint256 amountB, address to) external nonReentrant returns (uint256 liquidity) {
        IERC20(tokenA).safeTransferFrom(msg.sender, address(this), amountA);
        IERC20(tokenB).safeTransferFrom(msg.sender, address(this), amountB);
        uint256 supply = totalSupply();
        if (supply == 0) {
            liquidity = Math.sqrt(amountA * amountB) - 1000;
            _mint(address(1), 1000);
        } else {
            liquidity = Math.min((amountA * supply) / reserveA, (amountB * supply) / reserveB);
        }
        _mint(to, liquidity);
        reserveA += amountA;
        reserveB += amountB;
        emit Mint(msg.sender, amountA, amountB, liquidity);
    }

    function swap(uint256 amountAIn, uint256 amountBIn, address to) external nonReentrant {
        require((amountAIn > 0) != (amountBIn > 0), "Exactly one input");
        uint256 amountAOut;
        uint256 amountBOut;
        if (amountAIn > 0) {
            IERC20(tokenA).safeTransferFrom(msg.sender, address(this), amountAIn);
            amountBOut = (amountAIn * 997 * reserveB) / (reserveA * 1000 + amountAIn * 997);
            require(amountBOut > 0, "Insufficient output");
            reserveA += amountAIn;
            reserveB -= amountBOut;
            IERC20(tokenB).safeTransfer(to, amountBOut);
        } else {
            IERC20(tokenB).safeTransferFrom(msg.sender, address(this), amountBIn);
            amountAOut = (amountBIn * 997 * reserveA) / (reserveB * 1000 + amountBIn * 997);
            require(amountAOut > 0, "Insufficient output");
            reserveB += amountBIn;
            reserveA -= amountAOut;
            IERC20(tokenA).safeTransfer(to, amountAOut);
        }
        emit Swap(msg.sender, amountAIn, amountBIn, amountAOut, amountBOut);
    }
}
