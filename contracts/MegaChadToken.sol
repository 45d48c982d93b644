// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC20Burnable} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20Burnable.sol";

/// Devnet stand-in of the service token (MEGACHAD): 1,000,000,000 tokens to the deployer.
contract MegaChadToken is ERC20, ERC20Burnable {
    address public immutable devWallet;

    constructor(string memory name_, string memory symbol_, address devWallet_) ERC20(name_, symbol_) {
        require(devWallet_ != address(0), "Dev wallet required");
        devWallet = devWallet_;
        _mint(msg.sender, 1_000_000_000 * 1e18);
    }

    /// Burns half (a real burn, to the zero address) and sends the rest to the dev wallet.
    function burnToCreate(uint256 amount) external {
        require(amount > 0, "Amount must be positive");
        uint256 half = amount / 2;
        _burn(msg.sender, half);
        _transfer(msg.sender, devWallet, amount - half);
    }
}
