import { privateKeyToAccount } from 'viem/accounts'
import type { LocalAccount } from 'viem'
import type { Config } from '../config/load.ts'
import { ConfigError } from '../config/load.ts'
import { devnetAccount, roles } from './devnet-accounts.ts'

/** Which devnet account (docs/agents/devnet.md, Devnet accounts) stands in for each hot key; never used on a real chain. */
const DEVNET_ROLES = { minter: roles.deployer, relayer: roles.relayer, facilitator: roles.facilitator } as const

export type HotKeys = { minter: LocalAccount; relayer: LocalAccount; facilitator: LocalAccount }

/**
 * The service's own signing keys. On the embedded devnet they default to its well-known
 * accounts; on a real chain each must be configured, or start-up stops naming it.
 */
export function resolveHotKeys(config: Config, onDevnet: boolean): HotKeys {
  const pick = (role: keyof typeof DEVNET_ROLES, configured: { reveal(): string } | undefined, variable: string) => {
    if (configured) return privateKeyToAccount(configured.reveal() as `0x${string}`)
    if (onDevnet) return devnetAccount(DEVNET_ROLES[role]).account
    throw new ConfigError(`${variable} is required when RPC_URL points at a real chain.`)
  }
  return {
    minter: pick('minter', config.MINTER_PRIVATE_KEY, 'MINTER_PRIVATE_KEY'),
    relayer: pick('relayer', config.RELAYER_PRIVATE_KEY, 'RELAYER_PRIVATE_KEY'),
    facilitator:
      config.FACILITATOR_URL && !config.FACILITATOR_PRIVATE_KEY && !onDevnet
        ? // An external facilitator pays its own gas; this key is then unused.
          devnetAccount(DEVNET_ROLES.facilitator).account
        : pick('facilitator', config.FACILITATOR_PRIVATE_KEY, 'FACILITATOR_PRIVATE_KEY'),
  }
}
