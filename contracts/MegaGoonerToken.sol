// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC20Burnable} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20Burnable.sol";

/// Devnet stand-in of the second token (MG): 50,000,000 tokens to the deployer.
contract MegaGoonerToken is ERC20, ERC20Burnable {
    constructor() ERC20("Mega Gooner", "MEGAGOONER") {
        _mint(msg.sender, 50_000_000 * 1e18);
    }
}
