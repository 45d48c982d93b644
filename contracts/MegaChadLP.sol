// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";

interface ICircuitBreakerView {
    function isPaused() external view returns (bool);
}

/// Devnet MC/MG constant-product pair, also its own LP token, with the recorded tokenA/tokenB
/// layout (docs/contributors/contracts.md, Pair) and a 0.3 % fee. One departure, the one the spec describes: `swap`
/// credits the input already transferred to the pair (balance minus reserve), Uniswap-V2 style,
/// instead of pulling it with transferFrom as the recorded MegaChadLP does. `INPUT_STYLE()`
/// tells builders which style the pair uses (the recorded pair has no such getter: "pull").
contract MegaChadLP is ERC20, ReentrancyGuard {
    using SafeERC20 for IERC20;

    uint256 public constant MINIMUM_LIQUIDITY = 1000;
    /// 1 = the pair credits tokens transferred to it before `swap` (this devnet pair).
    uint8 public constant INPUT_STYLE = 1;

    address public immutable tokenA;
    address public immutable tokenB;
    address public immutable circuitBreaker;
    uint256 public reserveA;
    uint256 public reserveB;

    event Mint(address indexed sender, uint256 amountA, uint256 amountB, uint256 liquidity);
    event Burn(address indexed sender, uint256 amountA, uint256 amountB, uint256 liquidity);
    event Swap(address indexed sender, uint256 amountAIn, uint256 amountBIn, uint256 amountAOut, uint256 amountBOut);

    constructor(address _tokenA, address _tokenB, string memory _name, string memory _symbol, address _circuitBreaker)
        ERC20(_name, _symbol)
    {
        require(_tokenA != address(0) && _tokenB != address(0) && _tokenA != _tokenB, "Invalid tokens");
        tokenA = _tokenA;
        tokenB = _tokenB;
        circuitBreaker = _circuitBreaker;
    }

    modifier whenNotPaused() {
        require(circuitBreaker == address(0) || !ICircuitBreakerView(circuitBreaker).isPaused(), "Protocol paused");
        _;
    }

    function getReserves() external view returns (uint256, uint256) {
        return (reserveA, reserveB);
    }

    /// Pulls both amounts (approve first), mints LP to `to`.
    function addLiquidity(uint256 amountA, uint256 amountB, address to) external nonReentrant whenNotPaused returns (uint256 liquidity) {
        require(amountA > 0 && amountB > 0, "Insufficient amounts");
        IERC20(tokenA).safeTransferFrom(msg.sender, address(this), amountA);
        IERC20(tokenB).safeTransferFrom(msg.sender, address(this), amountB);
        uint256 supply = totalSupply();
        if (supply == 0) {
            liquidity = Math.sqrt(amountA * amountB) - MINIMUM_LIQUIDITY;
            _mint(address(1), MINIMUM_LIQUIDITY);
        } else {
            liquidity = Math.min((amountA * supply) / reserveA, (amountB * supply) / reserveB);
        }
        require(liquidity > 0, "Insufficient liquidity minted");
        _mint(to, liquidity);
        _sync();
        emit Mint(msg.sender, amountA, amountB, liquidity);
    }

    function removeLiquidity(uint256 liquidity, address to) external nonReentrant returns (uint256 amountA, uint256 amountB) {
        require(liquidity > 0, "Insufficient liquidity");
        uint256 supply = totalSupply();
        amountA = (liquidity * reserveA) / supply;
        amountB = (liquidity * reserveB) / supply;
        require(amountA > 0 && amountB > 0, "Insufficient liquidity burned");
        _burn(msg.sender, liquidity);
        IERC20(tokenA).safeTransfer(to, amountA);
        IERC20(tokenB).safeTransfer(to, amountB);
        _sync();
        emit Burn(msg.sender, amountA, amountB, liquidity);
    }

    /// Exactly one input non-zero; that amount must already have been transferred to the pair.
    /// No minimum output on chain: the caller checks it off chain.
    function swap(uint256 amountAIn, uint256 amountBIn, address to) external nonReentrant whenNotPaused {
        require((amountAIn > 0) != (amountBIn > 0), "Exactly one input");
        uint256 amountAOut;
        uint256 amountBOut;
        if (amountAIn > 0) {
            require(IERC20(tokenA).balanceOf(address(this)) - reserveA >= amountAIn, "Input not transferred");
            amountBOut = getAmountOut(amountAIn, reserveA, reserveB);
            require(amountBOut > 0, "Insufficient output");
            IERC20(tokenB).safeTransfer(to, amountBOut);
        } else {
            require(IERC20(tokenB).balanceOf(address(this)) - reserveB >= amountBIn, "Input not transferred");
            amountAOut = getAmountOut(amountBIn, reserveB, reserveA);
            require(amountAOut > 0, "Insufficient output");
            IERC20(tokenA).safeTransfer(to, amountAOut);
        }
        _sync();
        emit Swap(msg.sender, amountAIn, amountBIn, amountAOut, amountBOut);
    }

    function getAmountOut(uint256 amountIn, uint256 reserveIn, uint256 reserveOut) public pure returns (uint256) {
        if (reserveIn == 0 || reserveOut == 0) return 0;
        uint256 inWithFee = amountIn * 997;
        return (inWithFee * reserveOut) / (reserveIn * 1000 + inWithFee);
    }

    function _sync() private {
        reserveA = IERC20(tokenA).balanceOf(address(this));
        reserveB = IERC20(tokenB).balanceOf(address(this));
    }
}
