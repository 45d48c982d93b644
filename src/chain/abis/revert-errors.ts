import { parseAbi } from 'viem'

/**
 * Custom errors the contracts that plans call can revert with: OpenZeppelin 5's token, access,
 * pause and guard errors (the devnet stand-ins and the recorded contracts build on them), and
 * Permit2's. Reason strings (`require(..., "No rewards")`) and panics need no entry: viem
 * decodes Error(string) and Panic(uint256) by themselves.
 */
export const revertErrorsAbi = parseAbi([
  'error ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed)',
  'error ERC20InvalidSender(address sender)',
  'error ERC20InvalidReceiver(address receiver)',
  'error ERC20InsufficientAllowance(address spender, uint256 allowance, uint256 needed)',
  'error ERC20InvalidApprover(address approver)',
  'error ERC20InvalidSpender(address spender)',
  'error ERC2612ExpiredSignature(uint256 deadline)',
  'error ERC2612InvalidSigner(address signer, address owner)',
  'error ERC721InvalidOwner(address owner)',
  'error ERC721NonexistentToken(uint256 tokenId)',
  'error ERC721IncorrectOwner(address sender, uint256 tokenId, address owner)',
  'error ERC721InvalidSender(address sender)',
  'error ERC721InvalidReceiver(address receiver)',
  'error ERC721InsufficientApproval(address operator, uint256 tokenId)',
  'error OwnableUnauthorizedAccount(address account)',
  'error OwnableInvalidOwner(address owner)',
  'error EnforcedPause()',
  'error ExpectedPause()',
  'error ReentrancyGuardReentrantCall()',
  'error SafeERC20FailedOperation(address token)',
  'error AddressEmptyCode(address target)',
  'error FailedCall()',
  'error InsufficientBalance(uint256 balance, uint256 needed)',
  'error InvalidAccountNonce(address account, uint256 currentNonce)',
  'error ECDSAInvalidSignature()',
  'error InvalidAmount(uint256 maxAmount)',
  'error SignatureExpired(uint256 signatureDeadline)',
  'error InvalidNonce()',
  'error InvalidSigner()',
  'error AllowanceExpired(uint256 deadline)',
  'error InsufficientAllowance(uint256 amount)',
])
