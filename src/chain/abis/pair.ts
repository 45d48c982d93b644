import { parseAbi } from 'viem'

/**
 * MegaChadLP, the MC/MG constant-product pair and its own LP token (docs/contributors/contracts.md, Pair):
 * tokenA/tokenB layout, 0.3 % fee, no on-chain minimum output. `INPUT_STYLE()` exists on the
 * devnet pair only (1 = it credits input transferred to it before `swap`); the recorded pair
 * has no such getter and pulls its input with transferFrom.
 */
export const pairAbi = parseAbi([
  'function swap(uint256 amountAIn, uint256 amountBIn, address to)',
  'function addLiquidity(uint256 amountA, uint256 amountB, address to) returns (uint256 liquidity)',
  'function removeLiquidity(uint256 liquidity, address to) returns (uint256 amountA, uint256 amountB)',
  'function getReserves() view returns (uint256, uint256)',
  'function reserveA() view returns (uint256)',
  'function reserveB() view returns (uint256)',
  'function tokenA() view returns (address)',
  'function tokenB() view returns (address)',
  'function totalSupply() view returns (uint256)',
  'function balanceOf(address account) view returns (uint256)',
  'function allowance(address owner, address spender) view returns (uint256)',
  'function approve(address spender, uint256 amount) returns (bool)',
  'function INPUT_STYLE() view returns (uint8)',
  'event Swap(address indexed sender, uint256 amountAIn, uint256 amountBIn, uint256 amountAOut, uint256 amountBOut)',
  'event Mint(address indexed sender, uint256 amountA, uint256 amountB, uint256 liquidity)',
  'event Burn(address indexed sender, uint256 amountA, uint256 amountB, uint256 liquidity)',
])
