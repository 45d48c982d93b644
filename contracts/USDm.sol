// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/// Devnet stand-in of USDm (18 decimals). Only the owner mints, to seed accounts.
contract USDm is ERC20, Ownable {
    constructor() ERC20("MegaUSD", "USDm") Ownable(msg.sender) {}

    function mint(address to, uint256 amount) external onlyOwner {
        _mint(to, amount);
    }
}
