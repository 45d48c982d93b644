import { getAbiItem, parseAbi } from 'viem'

/** The signature-transfer surface of Permit2 that x402 payments touch. */
export const permit2Abi = parseAbi([
  'function nonceBitmap(address owner, uint256 wordPos) view returns (uint256)',
  'function DOMAIN_SEPARATOR() view returns (bytes32)',
  'function invalidateUnorderedNonces(uint256 wordPos, uint256 mask)',
  'event UnorderedNonceInvalidation(address indexed owner, uint256 word, uint256 mask)',
  'error InvalidAmount(uint256 maxAmount)',
  'error SignatureExpired(uint256 signatureDeadline)',
  'error InvalidNonce()',
  'error InvalidSigner()',
])

export const unorderedNonceInvalidationEvent = getAbiItem({ abi: permit2Abi, name: 'UnorderedNonceInvalidation' })

/**
 * The x402ExactPermit2Proxy (as @x402/evm 2.27 calls it): `settle` when the payer approved
 * Permit2, `settleWithPermit` when an EIP-2612 permit approves it in the same transaction.
 * The errors of Permit2 are listed too, so a reverted simulation decodes to its reason.
 */
export const x402ExactPermit2ProxyAbi = parseAbi([
  'struct TokenPermissions { address token; uint256 amount; }',
  'struct PermitTransferFrom { TokenPermissions permitted; uint256 nonce; uint256 deadline; }',
  'struct Witness { address to; uint256 validAfter; }',
  'struct EIP2612Permit { uint256 value; uint256 deadline; bytes32 r; bytes32 s; uint8 v; }',
  'function settle(PermitTransferFrom permit, address owner, Witness witness, bytes signature)',
  'function settleWithPermit(EIP2612Permit permit2612, PermitTransferFrom permit, address owner, Witness witness, bytes signature)',
  'function PERMIT2() view returns (address)',
  'event Settled()',
  'event SettledWithPermit()',
  'error InvalidAmount()',
  'error InvalidDestination()',
  'error InvalidOwner()',
  'error InvalidPermit2Address()',
  'error PaymentTooEarly()',
  'error Permit2612AmountMismatch()',
  'error ReentrancyGuardReentrantCall()',
  'error SignatureExpired(uint256 signatureDeadline)',
  'error InvalidNonce()',
  'error InvalidSigner()',
  'error ERC20InsufficientAllowance(address spender, uint256 allowance, uint256 needed)',
  'error ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed)',
  'error SafeERC20FailedOperation(address token)',
])

/** EIP-712 types of the x402 exact Permit2 payment: PermitWitnessTransferFrom with the proxy's witness. */
export const permit2WitnessTypes = {
  PermitWitnessTransferFrom: [
    { name: 'permitted', type: 'TokenPermissions' },
    { name: 'spender', type: 'address' },
    { name: 'nonce', type: 'uint256' },
    { name: 'deadline', type: 'uint256' },
    { name: 'witness', type: 'Witness' },
  ],
  TokenPermissions: [
    { name: 'token', type: 'address' },
    { name: 'amount', type: 'uint256' },
  ],
  Witness: [
    { name: 'to', type: 'address' },
    { name: 'validAfter', type: 'uint256' },
  ],
} as const

/** EIP-2612 Permit, as a payer signs it to approve Permit2 on USDm (domain "MegaUSD", "1"). */
export const eip2612PermitTypes = {
  Permit: [
    { name: 'owner', type: 'address' },
    { name: 'spender', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'nonce', type: 'uint256' },
    { name: 'deadline', type: 'uint256' },
  ],
} as const
