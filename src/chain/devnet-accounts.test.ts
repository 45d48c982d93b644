import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mnemonicToAccount } from 'viem/accounts'
import { bytesToHex } from 'viem'
import { DEVNET_MNEMONIC, DEVNET_PRIVATE_KEYS, devnetAccounts } from './devnet-accounts.ts'

test('the written-out devnet keys are those of the test mnemonic, m/44\'/60\'/0\'/0/i', () => {
  assert.equal(DEVNET_PRIVATE_KEYS.length, 10)
  for (const account of devnetAccounts()) {
    const derived = mnemonicToAccount(DEVNET_MNEMONIC, { addressIndex: account.index })
    assert.equal(account.privateKey, bytesToHex(derived.getHdKey().privateKey!))
    assert.equal(account.address, derived.address)
  }
})
