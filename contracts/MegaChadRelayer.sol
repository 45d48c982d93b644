// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/// Gasless burn: anyone submits a holder's signed BurnRequest; both halves move from the holder.
contract MegaChadRelayer is EIP712, Ownable {
    bytes32 public constant BURN_REQUEST_TYPEHASH = keccak256("BurnRequest(address burner,uint256 nonce,uint256 deadline)");

    IERC20 public immutable megachad;
    address public immutable burnAddress;
    address public immutable trenFundWallet;
    uint256 public immutable burnAmount;
    mapping(address => uint256) public nonces;

    event GaslessBurn(address indexed burner, uint256 nonce, uint256 burnAmount);

    constructor(address megachad_, address burnAddress_, address trenFundWallet_, uint256 burnAmount_)
        EIP712("MegaChadRelayer", "1")
        Ownable(msg.sender)
    {
        megachad = IERC20(megachad_);
        burnAddress = burnAddress_;
        trenFundWallet = trenFundWallet_;
        burnAmount = burnAmount_;
    }

    function getNonce(address burner) external view returns (uint256) {
        return nonces[burner];
    }

    function relayBurn(address burner, uint256 deadline, uint8 v, bytes32 r, bytes32 s) external {
        require(block.timestamp <= deadline, "Signature expired");
        uint256 nonce = nonces[burner];
        bytes32 digest = _hashTypedDataV4(keccak256(abi.encode(BURN_REQUEST_TYPEHASH, burner, nonce, deadline)));
        require(ECDSA.recover(digest, v, r, s) == burner, "Invalid signature");
        nonces[burner] = nonce + 1;
        uint256 half = burnAmount / 2;
        require(megachad.transferFrom(burner, burnAddress, half), "Burn transfer failed");
        require(megachad.transferFrom(burner, trenFundWallet, burnAmount - half), "Tren fund transfer failed");
        emit GaslessBurn(burner, nonce, burnAmount);
    }

    function withdrawGas(address payable to) external onlyOwner {
        to.transfer(address(this).balance);
    }

    receive() external payable {}
}
