import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { pino } from 'pino'
import { useDevnet } from '../support/harness.ts'
import { createTestDatabase } from '../support/postgres.ts'
import { TEST_DATABASE_URL, needsPostgres, onlyInLeg } from '../support/env.ts'
import { openDb, type Db } from '../../src/store/db.ts'
import { pooledPglite } from '../support/pglite-pool.ts'
import { createChain } from '../../src/chain/clients.ts'
import { createTxSender, isTxDropped } from '../../src/chain/sender/tx-sender.ts'
import { waitForSweeps } from '../support/sender-sweeps.ts'
import { rpcCall } from '../support/rpc.ts'
import { testAccount } from '../support/accounts.ts'

const devnet = useDevnet()

/** One JSON-RPC call to the devnet; a JSON-RPC error throws (a failed evm_* call must not silently change the scenario). */
/** JSON-RPC on the devnet; an error answer throws (a failed evm_revert fails the test). */
const rpc = (method: string, params: unknown[] = []) => rpcCall(devnet.url, method, params)
const chainOf = () =>
  createChain({ rpcUrl: devnet.url, publicRpcUrl: devnet.url, explorerUrl: 'https://x', contracts: devnet.info.contracts, fundWallet: devnet.info.accounts.fundWallet, facilitator: devnet.info.accounts.facilitator })

test('a transaction stuck past the timeout is replaced with a higher fee, same nonce, and reported once mined', async () => {
  const db: Db = await pooledPglite()
  const sender = createTxSender({ db, chain: chainOf(), account: testAccount(3).account, log: pino({ level: 'silent' }), stuckAfterMs: 300 })
  await rpc('evm_setAutomine', [false])
  try {
    const pending = sender.sendAndWait({ key: 'stuck:1', to: '0x000000000000000000000000000000000000bEEF', data: '0x', value: 1n }, { timeoutMs: 20_000 })
    let attempts = 0
    for (let i = 0; i < 100 && attempts < 2; i++) {
      await new Promise((r) => setTimeout(r, 100))
      attempts = Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM chain_tx_attempts')).rows[0]!.n)
    }
    assert.ok(attempts >= 2, 'a replacement was signed')
    await rpc('evm_mine')
    const mined = await pending
    assert.equal(mined.status, 'mined')
    const { rows } = await db.query<{ tx_hash: string; max_fee_per_gas: string }>('SELECT tx_hash, max_fee_per_gas FROM chain_tx_attempts ORDER BY created_at')
    assert.equal(new Set(rows.map((r) => r.tx_hash)).size, rows.length)
    assert.ok(BigInt(rows.at(-1)!.max_fee_per_gas) > BigInt(rows[0]!.max_fee_per_gas), 'each replacement pays more')
    assert.equal(mined.txHash, mined.receipt.transactionHash)
    assert.ok(rows.some((r) => r.tx_hash === mined.txHash), 'the mined version is one of ours')
    assert.equal(Number(await rpc('eth_getTransactionCount', [testAccount(3).account.address, 'latest'])), 1, 'one nonce used')
  } finally {
    await rpc('evm_setAutomine', [true])
    await db.close()
  }
})

test('a transaction that cannot be mined at its fee is replaced and its outcome recorded after its request gave up', async () => {
  const db: Db = await pooledPglite()
  const account = testAccount(2).account
  const sender = createTxSender({ db, chain: chainOf(), account, log: pino({ level: 'silent' }), stuckAfterMs: 1500, watchMs: 100 })
  const startNonce = Number(await rpc('eth_getTransactionCount', [account.address, 'latest']))
  await rpc('evm_setAutomine', [false])
  sender.start()
  try {
    // The request gives up long before the transaction counts as stuck.
    await assert.rejects(
      sender.sendAndWait({ key: 'late:1', to: '0x000000000000000000000000000000000000bEEF', data: '0x', value: 1n }, { timeoutMs: 200 }),
      (error: any) => error.code === 'UPSTREAM_FAILED',
    )
    const first = (await db.query<{ tx_hash: string; max_fee_per_gas: string }>("SELECT tx_hash, max_fee_per_gas FROM chain_txs WHERE idempotency_key = 'late:1'")).rows[0]!
    const blockingBaseFee = 2n * BigInt(first.max_fee_per_gas)
    // Every block now costs twice what the transaction offers: it cannot be mined as signed.
    let record = await sender.find('late:1')
    for (let i = 0; i < 150 && record?.status !== 'mined' && record?.status !== 'reverted'; i++) {
      await rpc('hardhat_setNextBlockBaseFeePerGas', [`0x${blockingBaseFee.toString(16)}`])
      await rpc('evm_mine')
      await new Promise((r) => setTimeout(r, 100))
      record = await sender.find('late:1')
    }
    assert.equal(record?.status, 'mined', 'the sender recorded a final state without any request waiting')
    assert.notEqual(record!.txHash, first.tx_hash, 'a replacement, not the original, was mined')
    assert.equal(record!.nonce, startNonce, 'same nonce')
    const receipt = (await rpc('eth_getTransactionReceipt', [record!.txHash])) as { status: string; blockNumber: string; gasUsed: string; effectiveGasPrice: string }
    assert.equal(receipt.status, '0x1')
    assert.equal(record!.blockNumber, Number(receipt.blockNumber))
    assert.equal(record!.gasUsed, BigInt(receipt.gasUsed).toString())
    assert.ok(BigInt(receipt.effectiveGasPrice) >= blockingBaseFee, 'it paid more than the original could')
    assert.equal(await rpc('eth_getTransactionReceipt', [first.tx_hash]), null, 'the original was never mined')
    const attempts = (await db.query<{ tx_hash: string }>("SELECT tx_hash FROM chain_tx_attempts WHERE idempotency_key = 'late:1'")).rows
    assert.ok(attempts.some((a) => a.tx_hash === record!.txHash))
    assert.equal(Number(await rpc('eth_getTransactionCount', [account.address, 'latest'])), startNonce + 1, 'one nonce used')
  } finally {
    await sender.stop()
    await rpc('evm_setAutomine', [true])
    await db.close()
  }
})

test('50 concurrent sends from two processes sharing PostgreSQL land with consecutive nonces; a crash in the middle resumes', { skip: onlyInLeg('postgres', needsPostgres) }, async () => {
  const pg = await createTestDatabase()
  const script = fileURLToPath(new URL('../support/sender-process.ts', import.meta.url))
  const run = (env: Record<string, string>) =>
    new Promise<{ code: number | null; out: string }>((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', script], { env: { ...process.env, DATABASE_URL: pg.url, RPC_URL: devnet.url, ...env }, stdio: ['ignore', 'pipe', 'inherit'] })
      let out = ''
      child.stdout.on('data', (d) => (out += d))
      child.on('exit', (code) => resolve({ code, out }))
    })
  try {
    const relayer = testAccount(1).account.address
    const startNonce = Number(await rpc('eth_getTransactionCount', [relayer, 'latest']))
    // A dies after storing 10 of its transactions; B sends its 25 meanwhile; A, restarted,
    // re-broadcasts what it stored and sends the rest.
    const bDone = run({ COUNT: '25', PREFIX: 'b' })
    const crashed = await run({ COUNT: '25', PREFIX: 'a', CRASH_AFTER: '10' })
    assert.equal(crashed.code, null, 'A was killed')
    const [a, b] = await Promise.all([run({ COUNT: '25', PREFIX: 'a' }), bDone])
    assert.equal(a.code, 0)
    assert.equal(b.code, 0)
    const records = [...JSON.parse(a.out), ...JSON.parse(b.out)] as Array<{ key: string; nonce: number; status: string }>
    assert.equal(records.length, 50)
    assert.ok(records.every((r) => r.status === 'mined'))
    const nonces = records.map((r) => r.nonce).sort((x, y) => x - y)
    assert.deepEqual(nonces, Array.from({ length: 50 }, (_, i) => startNonce + i), 'consecutive, no gap, no reuse')
    assert.equal(Number(await rpc('eth_getTransactionCount', [relayer, 'latest'])), startNonce + 50)
  } finally {
    await pg.drop()
  }
})

/**
 * Another transaction of the same key (sent outside the service) uses the nonce of a stored
 * one that is not mined yet: the stored one can never be mined. The sender marks it `dropped`,
 * both while a request waits for it (the request gets the typed error) and from its watch loop.
 */
for (const database of ['pglite', 'postgres'] as const) {
  test(`a stored transaction whose nonce another transaction of the key used is marked dropped, and its waiter gets a typed error (${database})`, { skip: database === 'postgres' ? onlyInLeg('postgres', needsPostgres) : onlyInLeg('embedded') }, async () => {
    const pg = database === 'postgres' ? await createTestDatabase() : undefined
    const db: Db = pg ? await openDb({ url: pg.url }) : await pooledPglite()
    const account = testAccount(database === 'pglite' ? 4 : 8).account
    const chain = chainOf()
    // A long stuck time: no replacement, so only the nonce decides.
    const sender = createTxSender({ db, chain, account, log: pino({ level: 'silent' }), stuckAfterMs: 60_000, watchMs: 100 })
    const to = '0x000000000000000000000000000000000000bEEF' as const
    const latest = async () => Number(await rpc('eth_getTransactionCount', [account.address, 'latest']))
    const stored = async (key: string) => (await db.query<{ tx_hash: string; nonce: string; max_fee_per_gas: string; max_priority_fee_per_gas: string; status: string }>('SELECT * FROM chain_txs WHERE idempotency_key = $1', [key])).rows[0]
    /** Takes the nonce of the stored transaction `key` with a transaction it does not know. */
    const takeNonce = async (key: string) => {
      const row = (await stored(key))!
      await rpc('hardhat_dropTransaction', [row.tx_hash])
      const raw = await account.signTransaction({
        chainId: chain.info.chainId, type: 'eip1559', to, value: 7n, nonce: Number(row.nonce), gas: 21_000n,
        maxFeePerGas: 3n * BigInt(row.max_fee_per_gas), maxPriorityFeePerGas: 3n * BigInt(row.max_priority_fee_per_gas),
      })
      const foreign = (await rpc('eth_sendRawTransaction', [raw])) as string
      await rpc('evm_mine')
      return { row, foreign }
    }
    const waitStatus = async (key: string, status: string) => {
      for (let i = 0; i < 100 && (await stored(key))?.status !== status; i++) await new Promise((r) => setTimeout(r, 50))
      return (await stored(key))?.status
    }
    const startNonce = await latest()
    await rpc('evm_setAutomine', [false])
    try {
      // 1. A request waits for its transaction while the nonce is taken.
      const waiting = sender.sendAndWait({ key: 'dropped:waited', to, data: '0x', value: 1n }, { timeoutMs: 20_000 })
      waiting.catch(() => {})
      assert.equal(await waitStatus('dropped:waited', 'broadcast'), 'broadcast')
      const first = await takeNonce('dropped:waited')
      assert.equal(((await rpc('eth_getTransactionReceipt', [first.foreign])) as { status: string }).status, '0x1', 'the foreign transaction used the nonce')
      await assert.rejects(waiting, (error: any) => {
        assert.ok(isTxDropped(error), `a TxDroppedError, got ${error}`)
        assert.equal(error.code, 'UPSTREAM_FAILED')
        assert.equal(error.retryable, false)
        assert.equal(error.details?.reason, 'TX_DROPPED')
        assert.equal(error.nonce, startNonce)
        return true
      })
      assert.equal((await stored('dropped:waited'))!.status, 'dropped')
      assert.equal(await rpc('eth_getTransactionReceipt', [first.row.tx_hash]), null, 'ours was never mined')
      // The same key again: the final answer at once, never a second transaction.
      await assert.rejects(sender.sendAndWait({ key: 'dropped:waited', to, data: '0x', value: 1n }, { timeoutMs: 20_000 }), (error: any) => isTxDropped(error))
      assert.equal((await sender.find('dropped:waited'))!.status, 'dropped')

      // 2. Nobody waits any more: the watch loop finds it.
      await assert.rejects(sender.sendAndWait({ key: 'dropped:watched', to, data: '0x', value: 2n }, { timeoutMs: 200 }), (error: any) => error.code === 'UPSTREAM_FAILED' && !isTxDropped(error))
      const second = (await stored('dropped:watched'))!
      assert.equal(Number(second.nonce), startNonce + 1)
      sender.start()
      await takeNonce('dropped:watched')
      assert.equal(await waitStatus('dropped:watched', 'dropped'), 'dropped', 'the watch loop marked it dropped')
      await assert.rejects(sender.sendAndWait({ key: 'dropped:watched', to, data: '0x', value: 2n }), (error: any) => isTxDropped(error))

      // 3. A transaction whose own version used the nonce is mined, never dropped, and the key goes on.
      await rpc('evm_setAutomine', [true])
      const next = await sender.sendAndWait({ key: 'after-drops', to, data: '0x', value: 3n }, { timeoutMs: 20_000 })
      assert.equal(next.status, 'mined')
      assert.equal(next.nonce, startNonce + 2)
      // Later looks of the watch loop change nothing (waited for, so the check can fail).
      await waitForSweeps(sender)
      assert.equal((await sender.find('after-drops'))!.status, 'mined')
      assert.equal(await latest(), startNonce + 3, 'three nonces used: two by the foreign transactions, one by ours')
    } finally {
      await sender.stop()
      await rpc('evm_setAutomine', [true])
      await db.close()
      await pg?.drop()
    }
  })
}
