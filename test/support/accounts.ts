import { toHex } from 'viem'
import { mnemonicToAccount, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts'
import { DEVNET_MNEMONIC, DEVNET_PRIVATE_KEYS } from '../../src/chain/devnet-accounts.ts'

const cache = new Map<number, { account: PrivateKeyAccount; privateKey: `0x${string}` }>()

/**
 * Account `index` of the devnet mnemonic: the ten funded ones from their written-out keys, any
 * other derived once per process (PBKDF2 of the mnemonic costs about 55 ms of CPU each time).
 */
export function testAccount(index: number): { account: PrivateKeyAccount; privateKey: `0x${string}` } {
  let found = cache.get(index)
  if (!found) {
    const privateKey = (DEVNET_PRIVATE_KEYS[index] ?? toHex(mnemonicToAccount(DEVNET_MNEMONIC, { addressIndex: index }).getHdKey().privateKey!)) as `0x${string}`
    found = { account: privateKeyToAccount(privateKey), privateKey }
    cache.set(index, found)
  }
  return found
}
