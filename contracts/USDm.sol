// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20Permit.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/// Devnet stand-in of USDm (18 decimals). Only the owner mints, to seed accounts. EIP-2612 with
/// the real token's domain ("MegaUSD", version "1"), as x402 payers over Permit2 may use it to
/// approve Permit2 without a transaction of their own.
contract USDm is ERC20, ERC20Permit, Ownable {
    constructor() ERC20("MegaUSD", "USDm") ERC20Permit("MegaUSD") Ownable(msg.sender) {}

    function mint(address to, uint256 amount) external onlyOwner {
        _mint(to, amount);
    }
}
