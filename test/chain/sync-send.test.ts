import { test } from 'node:test'
import assert from 'node:assert/strict'
import { pino } from 'pino'
import { useDevnet, pooledPglite } from '../support/harness.ts'
import { startRpcProxy } from '../support/rpc-proxy.ts'
import { testAccount } from '../support/accounts.ts'
import { startNodeWithoutSyncSend } from './without-sync-send.ts'
import { createChain } from '../../src/chain/clients.ts'
import { createTxSender } from '../../src/chain/sender/tx-sender.ts'
import { classifyBroadcastError } from '../../src/chain/sender/broadcast.ts'
import { syncTimeoutOf, SYNC_DEFAULT_TIMEOUT_MS, SYNC_MAX_TIMEOUT_MS } from '../../src/devnet/send-sync.ts'

const devnet = useDevnet()
const to = '0x000000000000000000000000000000000000bEEF' as const
const chainOf = (url: string) =>
  createChain({ rpcUrl: url, publicRpcUrl: url, explorerUrl: 'https://x', contracts: devnet.info.contracts, fundWallet: devnet.info.accounts.fundWallet, facilitator: devnet.info.accounts.facilitator })

/** One JSON-RPC call answered with its error, if any (the raw shape, code and data included). */
async function rawCall(method: string, params: unknown[]) {
  const response = await fetch(devnet.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params }) })
  return (await response.json()) as { id: number; result?: any; error?: { code: number; message: string; data?: unknown } }
}

async function signTransfer(index: number, nonceOffset = 0) {
  const account = testAccount(index).account
  const nonce = Number(await devnet.rpc('eth_getTransactionCount', [account.address, 'pending'])) + nonceOffset
  return account.signTransaction({ chainId: devnet.info.chainId, type: 'eip1559', to, value: 1n, nonce, gas: 21_000n, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 1n })
}

test('the devnet serves eth_sendRawTransactionSync: the receipt, as eth_getTransactionReceipt gives it, in the same call', async () => {
  const answer = await rawCall('eth_sendRawTransactionSync', [await signTransfer(4)])
  assert.equal(answer.id, 7)
  assert.equal(answer.error, undefined)
  assert.deepEqual(answer.result, await devnet.rpc('eth_getTransactionReceipt', [answer.result.transactionHash]))
  assert.equal(answer.result.status, '0x1')
  // With the optional timeout, as a number or a hex QUANTITY.
  for (const timeout of [5000, '0x1388']) {
    const withTimeout = await rawCall('eth_sendRawTransactionSync', [await signTransfer(4), timeout])
    assert.deepEqual(withTimeout.result, await devnet.rpc('eth_getTransactionReceipt', [withTimeout.result.transactionHash]))
  }
})

test('eth_sendRawTransactionSync refuses as eth_sendRawTransaction does: the same bytes again are "already sent", a nonce ahead is a gap', async () => {
  const raw = await signTransfer(4)
  const first = await rawCall('eth_sendRawTransactionSync', [raw])
  assert.ok(first.result)
  const again = await rawCall('eth_sendRawTransactionSync', [raw])
  assert.equal(again.error?.code, -32000)
  assert.equal(classifyBroadcastError(again.error!.message), 'already-sent')
  const ahead = await rawCall('eth_sendRawTransactionSync', [await signTransfer(4, 2)])
  assert.equal(ahead.error?.code, -32000)
  assert.equal(classifyBroadcastError(ahead.error!.message), 'nonce-gap')
})

test('without a block within the wait: error 4 with the hash as data; the transaction stays pooled and is mined later. A missing lower nonce: error 5', async () => {
  const raw = await signTransfer(4)
  await devnet.rpc('evm_setAutomine', [false])
  try {
    const started = performance.now()
    const timedOut = await rawCall('eth_sendRawTransactionSync', [raw, 150])
    const waited = performance.now() - started
    assert.equal(timedOut.error?.code, 4)
    const hash = timedOut.error!.data as string
    assert.match(hash, /^0x[0-9a-f]{64}$/)
    assert.ok(waited >= 140 && waited < 1500, `waited ${waited} ms for a 150 ms timeout`)
    assert.equal((await devnet.rpc('eth_getTransactionByHash', [hash])).blockNumber, null, 'pooled, not mined')
    // The next nonce is taken by the pooled one; one after it would wait for a missing nonce.
    const gap = await rawCall('eth_sendRawTransactionSync', [await signTransfer(4, 1), 150])
    assert.equal(gap.error?.code, 5)
    assert.match(gap.error!.data as string, /^0x[0-9a-f]{64}$/)
    // The missing nonce, sent while the chain does not mine: its call waits for the block.
    // Mined, the pooled one has its receipt, and the same bytes again are "already sent".
    const later = rawCall('eth_sendRawTransactionSync', [await signTransfer(4, 0), 5000])
    await new Promise((r) => setTimeout(r, 50))
    await devnet.rpc('evm_mine')
    const mined = await devnet.rpc('eth_getTransactionReceipt', [hash])
    assert.equal(mined.status, '0x1')
    assert.equal((await later).result?.status, '0x1', 'a sync send still waiting answers with the receipt once mined')
    const retry = await rawCall('eth_sendRawTransactionSync', [raw])
    assert.equal(classifyBroadcastError(retry.error!.message), 'already-sent')
  } finally {
    await devnet.rpc('evm_setAutomine', [true])
  }
})

test('the timeout parameter is a positive QUANTITY of milliseconds up to the maximum; anything else means the default', () => {
  assert.equal(syncTimeoutOf(150), 150)
  assert.equal(syncTimeoutOf('0x96'), 150)
  for (const invalid of [undefined, null, 0, -5, 1.5, 'soon', '150', SYNC_MAX_TIMEOUT_MS + 1]) assert.equal(syncTimeoutOf(invalid), SYNC_DEFAULT_TIMEOUT_MS, String(invalid))
})

test('the sender settles a transaction from the receipt of its sync send: recorded mined before sendAndWait answers, nothing polled', async () => {
  const proxy = await startRpcProxy(devnet.url)
  const db = await pooledPglite()
  const sender = createTxSender({ db, chain: chainOf(proxy.url), account: testAccount(5).account, log: pino({ level: 'silent' }) })
  try {
    const storedWhenAnswered = await sender.sendAndWait({ key: 'sync:1', to, data: '0x', value: 1n }).then(async (mined) => ({
      mined,
      row: (await db.query<{ status: string; block_number: string; gas_used: string; tx_hash: string }>("SELECT * FROM chain_txs WHERE idempotency_key = 'sync:1'")).rows[0]!,
    }))
    const { mined, row } = storedWhenAnswered
    assert.equal(mined.status, 'mined')
    assert.equal(row.status, 'mined', 'recorded before the answer')
    assert.equal(row.tx_hash, mined.txHash)
    assert.equal(Number(row.block_number), Number(mined.receipt.blockNumber))
    assert.equal(BigInt(row.gas_used), mined.receipt.gasUsed)
    assert.deepEqual(await devnet.rpc('eth_getTransactionReceipt', [mined.txHash]).then((r: any) => r.blockHash), mined.receipt.blockHash)
    const methods = proxy.calls().map((c) => c.method)
    assert.equal(methods.filter((m) => m === 'eth_sendRawTransactionSync').length, 1)
    assert.ok(!methods.includes('eth_sendRawTransaction'), 'no plain send')
    assert.ok(!methods.includes('eth_getTransactionReceipt'), 'no receipt polled')
    // A retry with the same key answers from the store, without sending anything.
    const sends = methods.length
    const retry = await sender.sendAndWait({ key: 'sync:1', to, data: '0x', value: 1n })
    assert.equal(retry.txHash, mined.txHash)
    assert.ok(!proxy.calls().slice(sends).some((c) => c.method.startsWith('eth_sendRawTransaction')), 'not sent again')
  } finally {
    await sender.stop()
    await db.close()
    await proxy.close()
  }
})

test('concurrent sends each settle from their own sync receipt, with consecutive nonces', async () => {
  const db = await pooledPglite()
  const account = testAccount(5).account
  const sender = createTxSender({ db, chain: chainOf(devnet.url), account, log: pino({ level: 'silent' }) })
  try {
    const start = Number(await devnet.rpc('eth_getTransactionCount', [account.address, 'latest']))
    const mined = await Promise.all(Array.from({ length: 20 }, (_, i) => sender.sendAndWait({ key: `burst:${i}`, to, data: '0x', value: BigInt(i + 1) })))
    assert.deepEqual(mined.map((m) => m.status), Array(20).fill('mined'))
    assert.deepEqual(mined.map((m) => m.nonce).sort((a, b) => a - b), Array.from({ length: 20 }, (_, i) => start + i))
    for (const m of mined) assert.equal(m.receipt.transactionHash, m.txHash)
    const { rows } = await db.query<{ status: string }>("SELECT status FROM chain_txs WHERE idempotency_key LIKE 'burst:%'")
    assert.deepEqual(rows.map((r) => r.status), Array(20).fill('mined'))
  } finally {
    await sender.stop()
    await db.close()
  }
})

test('a node without eth_sendRawTransactionSync: the sender notices once, then sends plainly and watches receipts', async () => {
  const node = await startNodeWithoutSyncSend(devnet.url)
  const db = await pooledPglite()
  const sender = createTxSender({ db, chain: chainOf(node.url), account: testAccount(5).account, log: pino({ level: 'silent' }) })
  try {
    const first = await sender.sendAndWait({ key: 'plain:1', to, data: '0x', value: 1n })
    assert.equal(first.status, 'mined')
    assert.equal(node.refused(), 1, 'asked once')
    const more = await Promise.all([2, 3, 4].map((i) => sender.sendAndWait({ key: `plain:${i}`, to, data: '0x', value: 1n })))
    assert.deepEqual(more.map((m) => m.status), ['mined', 'mined', 'mined'])
    assert.equal(node.refused(), 1, 'remembered: not asked again')
    const { rows } = await db.query<{ status: string }>("SELECT status FROM chain_txs WHERE idempotency_key LIKE 'plain:%'")
    assert.deepEqual(rows.map((r) => r.status), Array(4).fill('mined'))
  } finally {
    await sender.stop()
    await db.close()
    await node.close()
  }
})

test('a sync send that times out is not fatal: the watcher follows the pooled transaction until it is mined', async () => {
  const db = await pooledPglite()
  const sender = createTxSender({ db, chain: chainOf(devnet.url), account: testAccount(5).account, log: pino({ level: 'silent' }) })
  await devnet.rpc('evm_setAutomine', [false])
  try {
    const pending = sender.sendAndWait({ key: 'slow:1', to, data: '0x', value: 1n }, { timeoutMs: 20_000 })
    pending.catch(() => {})
    // The sync send waits at most 2 s; once it gave up the transaction is recorded as sent.
    let status: string | undefined
    for (let i = 0; i < 200 && status !== 'broadcast'; i++) {
      await new Promise((r) => setTimeout(r, 25))
      status = (await sender.find('slow:1'))?.status
    }
    assert.equal(status, 'broadcast')
    await devnet.rpc('evm_mine')
    const mined = await pending
    assert.equal(mined.status, 'mined')
    assert.equal((await sender.find('slow:1'))?.status, 'mined')
  } finally {
    await devnet.rpc('evm_setAutomine', [true])
    await sender.stop()
    await db.close()
  }
})

test('a nonce gap met by a sync send: the stored transaction below is sent first, then both are mined', async () => {
  const db = await pooledPglite()
  const account = testAccount(5).account
  const sender = createTxSender({ db, chain: chainOf(devnet.url), account, log: pino({ level: 'silent' }) })
  try {
    // A process stored 'gap:1' and died before sending it.
    const pending = sender.sendAndWait({ key: 'gap:1', to, data: '0x', value: 1n }, {
      onStored: () => {
        throw Object.assign(new Error('crashed before the broadcast'), { crash: true })
      },
    })
    await assert.rejects(pending, (error: any) => error.crash === true)
    assert.equal((await sender.find('gap:1'))?.status, 'signed')
    const second = await sender.sendAndWait({ key: 'gap:2', to, data: '0x', value: 2n })
    assert.equal(second.status, 'mined')
    const first = await sender.sendAndWait({ key: 'gap:1', to, data: '0x', value: 1n })
    assert.equal(first.status, 'mined')
    assert.equal(second.nonce, first.nonce + 1)
  } finally {
    await sender.stop()
    await db.close()
  }
})
