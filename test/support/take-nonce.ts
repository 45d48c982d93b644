import assert from 'node:assert/strict'
import { rpcCall } from './rpc.ts'
import type { TxSender } from '../../src/chain/sender/tx-sender.ts'
import type { Queryable } from '../../src/store/db.ts'
import { testAccount } from './accounts.ts'


/**
 * Makes the first transaction `sender` sends for a key matching `match` lose its nonce, as when
 * the hot key is used outside the service: once stored and broadcast it is taken out of the
 * pool, and a plain transfer of the same key with that nonce is mined instead. Returns the
 * list of what was taken (the key, the lost transaction, the one that used its nonce).
 */
export function takeFirstNonce(options: {
  sender: TxSender
  addressIndex: number
  rpcUrl: string
  db: Queryable
  chainId: number
  match: (key: string) => boolean
}) {
  const { sender, rpcUrl, db, chainId, match } = options
  const rpc = (method: string, params: unknown[] = []) => rpcCall(rpcUrl, method, params)
  const account = testAccount(options.addressIndex).account
  assert.equal(sender.address, account.address)
  const real = sender.sendAndWait.bind(sender)
  const taken: Array<{ key: string; hash: string; foreign: string }> = []
  sender.sendAndWait = async (request, sendOptions) => {
    if (taken.length > 0 || !match(request.key)) return real(request, sendOptions)
    await rpc('evm_setAutomine', [false])
    let pending
    try {
      pending = real(request, sendOptions)
      pending.catch(() => {})
      let stored = await sender.find(request.key)
      for (let i = 0; i < 200 && stored?.status !== 'broadcast'; i++) {
        await new Promise((r) => setTimeout(r, 25))
        stored = await sender.find(request.key)
      }
      assert.equal(stored?.status, 'broadcast')
      const fees = (await db.query<{ max_fee_per_gas: string; max_priority_fee_per_gas: string }>('SELECT * FROM chain_txs WHERE idempotency_key = $1', [request.key])).rows[0]!
      await rpc('hardhat_dropTransaction', [stored!.txHash])
      const raw = await account.signTransaction({
        chainId, type: 'eip1559', to: '0x000000000000000000000000000000000000bEEF', value: 1n, nonce: stored!.nonce, gas: 21_000n,
        maxFeePerGas: 3n * BigInt(fees.max_fee_per_gas), maxPriorityFeePerGas: 3n * BigInt(fees.max_priority_fee_per_gas),
      })
      const foreign = (await rpc('eth_sendRawTransaction', [raw])) as string
      await rpc('evm_mine')
      taken.push({ key: request.key, hash: stored!.txHash, foreign })
    } finally {
      await rpc('evm_setAutomine', [true])
    }
    return pending
  }
  return taken
}
