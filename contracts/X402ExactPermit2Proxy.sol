// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Permit2} from "./Permit2.sol";

interface IERC20PermitLike {
    function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s) external;
}

/// Devnet stand-in of the x402ExactPermit2Proxy, written from the interface the x402 `exact`
/// scheme uses (the x402 EVM package 2.27: settle and settleWithPermit, the witness {to, validAfter}, the
/// errors and events): the spender a payer names in its Permit2 signature, which moves exactly
/// the permitted amount to the witness's `to` and nowhere else. The devnet places its runtime
/// code at 0x402085c248EeA27D92E8b30b2C58ed07f9E20001, beside Permit2 at its canonical address.
contract X402ExactPermit2Proxy {
    Permit2 public constant PERMIT2 = Permit2(0x000000000022D473030F116dDEE9F6B43aC78BA3);

    /// The witness type as Permit2 appends it: referenced types in alphabetical order.
    string public constant WITNESS_TYPE_STRING =
        "Witness witness)TokenPermissions(address token,uint256 amount)Witness(address to,uint256 validAfter)";
    bytes32 public constant WITNESS_TYPEHASH = keccak256("Witness(address to,uint256 validAfter)");

    struct Witness {
        address to;
        uint256 validAfter;
    }

    struct EIP2612Permit {
        uint256 value;
        uint256 deadline;
        bytes32 r;
        bytes32 s;
        uint8 v;
    }

    event Settled();
    event SettledWithPermit();

    error InvalidAmount();
    error InvalidDestination();
    error InvalidOwner();
    error InvalidPermit2Address();
    error PaymentTooEarly();
    error Permit2612AmountMismatch();
    error ReentrancyGuardReentrantCall();

    bool private entered;

    modifier nonReentrant() {
        if (entered) revert ReentrancyGuardReentrantCall();
        entered = true;
        _;
        entered = false;
    }

    function settle(
        Permit2.PermitTransferFrom calldata permit,
        address owner,
        Witness calldata witness,
        bytes calldata signature
    ) external nonReentrant {
        _settle(permit, owner, witness, signature);
        emit Settled();
    }

    /// Approves Permit2 with the payer's EIP-2612 permit first (a failing permit is ignored:
    /// the approval may exist already), then settles.
    function settleWithPermit(
        EIP2612Permit calldata permit2612,
        Permit2.PermitTransferFrom calldata permit,
        address owner,
        Witness calldata witness,
        bytes calldata signature
    ) external nonReentrant {
        if (permit2612.value != permit.permitted.amount) revert Permit2612AmountMismatch();
        try IERC20PermitLike(permit.permitted.token).permit(
            owner, address(PERMIT2), permit2612.value, permit2612.deadline, permit2612.v, permit2612.r, permit2612.s
        ) {} catch {}
        _settle(permit, owner, witness, signature);
        emit SettledWithPermit();
    }

    function _settle(Permit2.PermitTransferFrom calldata permit, address owner, Witness calldata witness, bytes calldata signature) private {
        uint256 amount = permit.permitted.amount;
        if (amount == 0) revert InvalidAmount();
        if (owner == address(0)) revert InvalidOwner();
        if (witness.to == address(0)) revert InvalidDestination();
        if (block.timestamp < witness.validAfter) revert PaymentTooEarly();
        bytes32 witnessHash = keccak256(abi.encode(WITNESS_TYPEHASH, witness.to, witness.validAfter));
        PERMIT2.permitWitnessTransferFrom(
            permit, Permit2.SignatureTransferDetails({to: witness.to, requestedAmount: amount}), owner, witnessHash, WITNESS_TYPE_STRING, signature
        );
    }
}
