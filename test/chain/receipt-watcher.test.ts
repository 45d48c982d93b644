import { test } from 'node:test'
import assert from 'node:assert/strict'
import { pino } from 'pino'
import { useDevnet } from '../support/harness.ts'
import { startRpcProxy } from '../support/rpc-proxy.ts'
import { startNodeWithoutSyncSend } from './without-sync-send.ts'
import { waitForSweeps } from '../support/sender-sweeps.ts'
import { pooledPglite } from '../support/pglite-pool.ts'
import { createChain } from '../../src/chain/clients.ts'
import { createTxSender } from '../../src/chain/sender/tx-sender.ts'
import { testAccount } from '../support/accounts.ts'

const devnet = useDevnet()

/** One JSON-RPC call to the devnet; a JSON-RPC error throws. */
const rpc = async (method: string, params: unknown[] = []) => {
  const response = await fetch(devnet.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
  const body = (await response.json()) as { result: unknown; error?: { code: number; message: string } }
  if (body.error) throw new Error(`${method}: ${body.error.message} (${body.error.code})`)
  return body.result
}

test('one watcher per key settles every waiting request as their block arrives: receipts read once while waiting and once when mined, nothing read while idle', async () => {
  const proxy = await startRpcProxy(devnet.url)
  // The watcher's own reading, as on a node without eth_sendRawTransactionSync (with it, the
  // receipts of this block would come with the sends still waiting: test/chain/sync-send.test.ts).
  const node = await startNodeWithoutSyncSend(proxy.url)
  const db = await pooledPglite()
  const chain = createChain({ rpcUrl: node.url, publicRpcUrl: node.url, explorerUrl: 'https://x', contracts: devnet.info.contracts, fundWallet: devnet.info.accounts.fundWallet, facilitator: devnet.info.accounts.facilitator })
  const account = testAccount(6).account
  const sender = createTxSender({ db, chain, account, log: pino({ level: 'silent' }), pollMs: 10, watchMs: 50 })
  const to = '0x000000000000000000000000000000000000bEEF' as const
  const count = 30
  sender.start()
  try {
    // Nothing open: the loop reads the store, never the chain.
    await waitForSweeps(sender, 2)
    const idle = proxy.calls().length
    await waitForSweeps(sender, 3)
    assert.equal(proxy.calls().length, idle, 'no RPC while nothing is open')

    const startNonce = Number(await rpc('eth_getTransactionCount', [account.address, 'latest']))
    await rpc('evm_setAutomine', [false])
    let pending: Array<Promise<Awaited<ReturnType<typeof sender.sendAndWait>>>> = []
    let mark = 0
    try {
      pending = Array.from({ length: count }, (_, i) => sender.sendAndWait({ key: `watched:${i}`, to, data: '0x', value: BigInt(i + 1) }, { timeoutMs: 20_000 }))
      for (const p of pending) p.catch(() => {})
      const broadcast = async () => Number((await db.query<{ n: string }>("SELECT count(*) AS n FROM chain_txs WHERE status = 'broadcast'")).rows[0]!.n)
      for (let i = 0; i < 200 && (await broadcast()) < count; i++) await new Promise((r) => setTimeout(r, 25))
      assert.equal(await broadcast(), count, 'every transaction stored and sent')
      await waitForSweeps(sender, 2)
      const waiting = proxy.calls()
      // Read once when first watched (fast chains have mined it by then), never again while
      // no nonce of the key was used.
      assert.equal(waiting.filter((c) => c.method === 'eth_getTransactionReceipt').length, count, 'one receipt read per transaction while waiting')
      assert.ok(waiting.some((c) => c.method === 'eth_getTransactionCount' && c.params[1] === 'latest'), 'the loop read the key nonce')
      mark = proxy.calls().length
      await rpc('evm_mine')
    } finally {
      await rpc('evm_setAutomine', [true])
    }
    const mined = await Promise.all(pending)
    assert.deepEqual(mined.map((m) => m.status), Array(count).fill('mined'))
    assert.equal(new Set(mined.map((m) => m.blockNumber)).size, 1, 'all in the one block mined')
    assert.deepEqual(mined.map((m) => m.nonce).sort((a, b) => a - b), Array.from({ length: count }, (_, i) => startNonce + i), 'consecutive nonces')
    for (const m of mined) assert.equal(m.receipt.transactionHash, m.txHash)
    const receiptReads = proxy.calls().slice(mark).filter((c) => c.method === 'eth_getTransactionReceipt')
    assert.equal(receiptReads.length, count, 'each receipt read once')
    const stored = (await db.query<{ status: string }>("SELECT status FROM chain_txs WHERE idempotency_key LIKE 'watched:%'")).rows
    assert.deepEqual(stored.map((r) => r.status), Array(count).fill('mined'))
  } finally {
    await sender.stop()
    await db.close()
    await node.close()
    await proxy.close()
  }
})
