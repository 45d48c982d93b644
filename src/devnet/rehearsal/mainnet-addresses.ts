/**
 * The MegaETH mainnet addresses the rehearsal devnet places its contracts at
 * (../shared/reference/chain-facts.md §1.1). Contracts with no recorded mainnet address
 * (the Uniswap factory and position manager of Kumbaya, the second token, the DeFi suite) are
 * deployed wherever the deployer's nonce puts them; the pool is where the factory's CREATE2
 * puts it (see rehearsal-deploy.ts).
 */
export const MAINNET = {
  token: '0x374A17bd16B5cD76aaeFC9EAF76aE07e9aF3d888',
  nft: '0x1f1eFd3476b95091B9332b2d36a24bDE12CC6296',
  fundWallet: '0x85bf9272DEA7dff1781F71473187b96c6f2f370C',
  usdm: '0xFAfDdbb3FC7688494971a79cc65DCa3EF82079E7',
  usdmForwarder: '0x2c2d8EF0664432BA243deF0b8f60aF7aB43a60B4',
  facilitator: '0x8E7769D440b3460b92159Dd9C6D17302b036e2d6',
  relayer: '0x87d67c0A351FeB2bB9F6985D55665544F94ebC9F',
  referral: '0xf85004d10AbA6200669FeB12C81d356027312181',
  quoterV2: '0x1F1a8dC7E138C34b503Ca080962aC10B75384a27',
  swapRouter: '0xE5BbEF8De2DB447a7432A47EBa58924d94eE470e',
  pool: '0x1c08a462e50532640441b4fc64385e610ba3a78d',
  weth: '0x4200000000000000000000000000000000000006',
  identityRegistry: '0x8004A169FB4a3325136EB29fA0ceB6D2e539a432',
  reputationRegistry: '0x8004BAa17C55a88189AE136b182e5fdA19dE9b63',
  names: '0x5B424C6CCba77b32b9625a6fd5A30D409d20d997',
  namesIdentity: '0x2dA389bD4BB21c8F6a6c0407AcE3e87e7a0B65e1',
  multicall3: '0xcA11bde05977b3631167028862bE2a173976CA11',
} as const
