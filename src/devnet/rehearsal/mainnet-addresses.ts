import { readFileSync } from 'node:fs'
import { NETWORK_PROFILES } from '../../config/network-profile.ts'

type Profile = { contracts: Record<string, string | null>; fundWallet: string; facilitator: string; agentId: number }
const profile = JSON.parse(readFileSync(NETWORK_PROFILES.megaeth, 'utf8')) as Profile
const at = (name: string): `0x${string}` => {
  const address = profile.contracts[name]
  if (!address) throw new Error(`deploy/megaeth.json has no address for ${name}`)
  return address as `0x${string}`
}

/**
 * The MegaETH mainnet addresses the rehearsal devnet places its contracts at: those of the
 * shipped profile (deploy/megaeth.json, from ../shared/reference/chain-facts.md §1.1), so the
 * rehearsal follows the profile. Contracts the profile lacks (Kumbaya's factory and position
 * manager, MG, the DeFi suite) are deployed wherever the deployer's nonce puts them, or not at
 * all; the pool is where that factory's CREATE2 puts it (deploy-at-mainnet.ts).
 */
export const MAINNET = {
  token: at('token'),
  nft: at('nft'),
  usdm: at('usdm'),
  usdmForwarder: at('usdmForwarder'),
  relayer: at('relayer'),
  referral: at('referral'),
  quoterV2: at('quoterV2'),
  swapRouter: at('swapRouter'),
  pool: at('pool'),
  weth: at('weth'),
  identityRegistry: at('identityRegistry'),
  reputationRegistry: at('reputationRegistry'),
  names: at('names'),
  /** The MegaNames address the reference's chadboard reads (the profile's notes): a second copy. */
  namesChadboard: '0x5B424C6CCba77b32b9625a6fd5A30D409d20d997',
  multicall3: at('multicall3'),
  fundWallet: profile.fundWallet as `0x${string}`,
  facilitator: profile.facilitator as `0x${string}`,
} as const

/** The service's ERC-8004 agent ID on mainnet. */
export const MAINNET_AGENT_ID = profile.agentId
