import { mnemonicToAccount } from 'viem/accounts'
import { bytesToHex } from 'viem'

/** The public test mnemonic (DESIGN.md): these keys are known to everyone, devnet only. */
export const DEVNET_MNEMONIC = 'test test test test test test test test test test test junk'
export const DEVNET_BALANCE_WEI = 10_000n * 10n ** 18n

export function devnetAccount(index: number) {
  const account = mnemonicToAccount(DEVNET_MNEMONIC, { addressIndex: index })
  const privateKey = bytesToHex(account.getHdKey().privateKey!)
  return { index, address: account.address, privateKey, account }
}

export const devnetAccounts = () => Array.from({ length: 10 }, (_, i) => devnetAccount(i))

/** Roles of the accounts table of DESIGN.md. */
export const roles = {
  deployer: 0,
  relayer: 1,
  facilitator: 2,
  fundWallet: 3,
  demoHolder: 4,
  agents: [5, 6, 7, 8, 9],
} as const
