import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { createWalletClient, erc20Abi, http, parseAbi } from 'viem'
import { pino } from 'pino'
import { useDevnet } from '../support/harness.ts'
import type { Db } from '../../src/store/db.ts'
import { testBackend } from '../support/postgres.ts'
import { TEST_DATABASE_URL, needsPostgres, onlyInLeg } from '../support/env.ts'
import { createChain, createViemChain } from '../../src/chain/clients.ts'
import { createIndexer } from '../../src/indexer/indexer.ts'
import { createMemoryBus } from '../../src/adapters/bus/memory.ts'
import type { EventBus } from '../../src/adapters/bus/port.ts'
import { createFreshness } from '../../src/cache/freshness.ts'
import { startRpcProxy } from '../support/rpc-proxy.ts'
import { rpcCall } from '../support/rpc.ts'
import { testAccount } from '../support/accounts.ts'

const E18 = 10n ** 18n
const DEAD = '0x000000000000000000000000000000000000dEaD'
const devnet = useDevnet()
let db: Db
let backend: Awaited<ReturnType<typeof testBackend>>

before(async () => {
  backend = await testBackend()
  db = await backend.openDb()
})
after(async () => {
  await db?.close()
  await backend?.drop()
})

/** JSON-RPC on the devnet; an error answer throws (a failed evm_revert fails the test). */
const rpc = (method: string, params: unknown[] = []) => rpcCall(devnet.url, method, params)

function indexer(options: { pageSize?: number; confirmations?: number; rpcUrl?: string; bus?: EventBus } = {}) {
  const chain = createChain({
    rpcUrl: options.rpcUrl ?? devnet.url, publicRpcUrl: devnet.url, explorerUrl: 'https://megaexplorer.xyz',
    contracts: devnet.info.contracts, fundWallet: devnet.info.accounts.fundWallet, facilitator: devnet.info.accounts.facilitator,
  })
  const bus = options.bus ?? createMemoryBus()
  return createIndexer({
    db, chain, bus, fresh: createFreshness(bus), log: pino({ level: 'silent' }), startBlock: BigInt(devnet.info.deployBlock), confirmations: options.confirmations ?? 0,
    pollMs: 60_000, pageSize: options.pageSize ?? 7,
  })
}

const holder = () => createWalletClient({ chain: createViemChain(devnet.url, 'https://x', devnet.info.contracts.multicall3), transport: http(devnet.url), account: testAccount(4).account })
async function burnLeg(to: `0x${string}`, tokens: bigint) {
  const hash = await holder().writeContract({ address: devnet.info.contracts.token, abi: erc20Abi, functionName: 'transfer', args: [to, tokens * E18] })
  await rpc('eth_getTransactionReceipt', [hash])
  return hash.toLowerCase()
}
const legs = async () => (await db.query<{ tx_hash: string; leg: string; value: string }>('SELECT tx_hash, leg, value FROM token_burns ORDER BY block_number, log_index')).rows
const cursorBlock = async () => Number((await db.query<{ block_number: string }>('SELECT block_number FROM indexer_cursor')).rows[0]!.block_number)

test('indexes burn legs and NFT mints in pages, and resumes from its cursor after a restart', async () => {
  const first = await burnLeg(DEAD, 112_500n)
  const second = await burnLeg(devnet.info.accounts.fundWallet, 112_500n)
  const nftAbi = parseAbi(['function mint(address,string) returns (uint256)'])
  const minter = createWalletClient({ chain: createViemChain(devnet.url, 'https://x', devnet.info.contracts.multicall3), transport: http(devnet.url), account: testAccount(0).account })
  await minter.writeContract({ address: devnet.info.contracts.nft, abi: nftAbi, functionName: 'mint', args: [devnet.info.accounts.agents[0]!, 'ipfs://x'] })

  const head = Number(await rpc('eth_blockNumber'))
  const reached = await indexer({ pageSize: 7 }).sync()
  assert.equal(Number(reached), head)
  assert.deepEqual((await legs()).map((l) => [l.tx_hash, l.leg]), [[first, 'dead'], [second, 'fund']])
  const owners = (await db.query<{ owner: string }>('SELECT owner FROM nft_owners')).rows
  assert.deepEqual(owners.map((o) => o.owner.toLowerCase()), [devnet.info.accounts.agents[0]!.toLowerCase()])

  // A new process picks up where the last one stopped: only the new block is read.
  const stoppedAt = await cursorBlock()
  const third = await burnLeg(DEAD, 1n)
  const proxy = await startRpcProxy(devnet.url)
  try {
    await indexer({ pageSize: 7, rpcUrl: proxy.url }).sync()
    const ranges = proxy.calls().filter((c) => c.method === 'eth_getLogs').map((c) => [Number(c.params[0].fromBlock), Number(c.params[0].toBlock)])
    assert.deepEqual(ranges, [[stoppedAt + 1, stoppedAt + 1]], 'one read, of the one new block')
  } finally {
    await proxy.close()
  }
  assert.deepEqual((await legs()).map((l) => l.tx_hash), [first, second, third])
  assert.equal(await cursorBlock(), Number(await rpc('eth_blockNumber')))
})

test('stays the confirmation depth behind the head', async () => {
  for (let i = 0; i < 5; i++) await burnLeg(DEAD, 2n)
  const head = Number(await rpc('eth_blockNumber'))
  await indexer({ confirmations: 3 }).sync()
  assert.equal(await cursorBlock(), head - 3)
  await indexer().sync()
})

test('survives a reorg: rolled-back transfers disappear, the new branch is indexed', async () => {
  const snapshot = await rpc('evm_snapshot')
  const orphan = await burnLeg(DEAD, 7n)
  await burnLeg(DEAD, 8n)
  await indexer().sync()
  assert.ok((await legs()).some((l) => l.tx_hash === orphan))

  assert.equal(await rpc('evm_revert', [snapshot]), true, 'the chain went back to the snapshot')
  // The new branch: different transactions at the same heights.
  const replacement = await burnLeg(devnet.info.accounts.fundWallet, 9n)
  await burnLeg(devnet.info.accounts.fundWallet, 10n)
  await burnLeg(devnet.info.accounts.fundWallet, 11n)
  await indexer().sync()
  const now = await legs()
  assert.ok(!now.some((l) => l.tx_hash === orphan), 'the orphaned burn is gone')
  assert.ok(now.some((l) => l.tx_hash === replacement && l.leg === 'fund'), 'the new branch is indexed')
  assert.equal(await cursorBlock(), Number(await rpc('eth_blockNumber')))
  const values = now.map((l) => BigInt(l.value) / E18)
  assert.ok(!values.includes(7n) && !values.includes(8n))
})

test('instances sharing a database take turns: one lease holder at a time, taken over when it lapses (two connections to PostgreSQL)', { skip: onlyInLeg('postgres', needsPostgres) }, async () => {
  const { acquireLease } = await import('../../src/store/indexer-leases.ts')
  // Two instances are two connection pools on one database, never one connection shared.
  const shared = await testBackend('postgres')
  const [one, two] = [await shared.openDb(), await shared.openDb()]
  try {
    assert.equal(await acquireLease(one, 'test-lease', 'a', 60_000), true)
    assert.equal(await acquireLease(two, 'test-lease', 'b', 60_000), false, 'b waits while a holds it')
    assert.equal(await acquireLease(one, 'test-lease', 'a', 60_000), true, 'a renews')
    assert.equal(await acquireLease(one, 'test-lease-2', 'c', 1), true)
    await new Promise((r) => setTimeout(r, 20))
    assert.equal(await acquireLease(two, 'test-lease-2', 'd', 60_000), true, 'an expired lease is taken over')
    // Both race for a free lease, many times over: exactly one wins each round.
    for (let round = 0; round < 20; round++) {
      const name = `race-${round}`
      const won = await Promise.all([acquireLease(one, name, 'x', 60_000), acquireLease(two, name, 'y', 60_000), acquireLease(one, name, 'z', 60_000), acquireLease(two, name, 'w', 60_000)])
      assert.equal(won.filter(Boolean).length, 1, `round ${round}: ${won}`)
    }
  } finally {
    await one.close()
    await two.close()
    await shared.drop()
  }
})

test('one instance takes its turn on the embedded database too', async () => {
  const { acquireLease } = await import('../../src/store/indexer-leases.ts')
  assert.equal(await acquireLease(db, 'test-lease', 'a', 60_000), true)
  assert.equal(await acquireLease(db, 'test-lease', 'b', 60_000), false, 'b waits while a holds it')
})

test('an RPC that refuses large log ranges is read in halves until it answers', async () => {
  const hashes = []
  for (let i = 0; i < 9; i++) hashes.push(await burnLeg(DEAD, 3n))
  const proxy = await startRpcProxy(devnet.url, { maxLogsRange: 3 })
  try {
    await indexer({ pageSize: 50, rpcUrl: proxy.url }).sync()
    const answered = proxy.calls().filter((c) => c.method === 'eth_getLogs').map((c) => Number(c.params[0].toBlock) - Number(c.params[0].fromBlock) + 1)
    assert.ok(answered.some((size) => size > 3), 'the first range asked was larger than the RPC allows')
    assert.equal(await cursorBlock(), Number(await rpc('eth_blockNumber')))
    const indexed = new Set((await legs()).map((l) => l.tx_hash))
    assert.ok(hashes.every((h) => indexed.has(h)), 'every block of the refused ranges was indexed')
  } finally {
    await proxy.close()
  }
})

test('a mint made elsewhere reaches the stream once, in the shape of the pipeline\'s burn events', async () => {
  const nftAbi = parseAbi(['function mint(address,string) returns (uint256)', 'event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)'])
  const account = testAccount(0).account
  const chain = createViemChain(devnet.url, 'https://x', devnet.info.contracts.multicall3)
  const minter = createWalletClient({ chain, transport: http(devnet.url), account })
  const mintTo = async (to: `0x${string}`) => {
    const hash = await minter.writeContract({ address: devnet.info.contracts.nft, abi: nftAbi, functionName: 'mint', args: [to, 'ipfs://m'] })
    const receipt = (await rpc('eth_getTransactionReceipt', [hash])) as { logs: Array<{ topics: string[] }> }
    return { hash: hash.toLowerCase(), tokenId: BigInt(receipt.logs[0]!.topics[3]!) }
  }
  await indexer().sync()
  const published: Array<{ type: string; data: any }> = []
  const bus = createMemoryBus()
  bus.subscribe((event) => published.push(event))

  // Made elsewhere: only the chain's view, with the same keys.
  const foreign = await mintTo(devnet.info.accounts.agents[1]!)
  // The service's own mint, sent (stored in chain_txs) but not yet recorded by the pipeline.
  const pending = await mintTo(devnet.info.accounts.agents[2]!)
  await db.query(
    `INSERT INTO chain_txs (sender, nonce, idempotency_key, to_address, data, raw_tx, tx_hash, status) VALUES ($1, $2, $3, $4, '0x', '0x', $5, 'broadcast')`,
    [account.address, 900_001, `mint:test-${pending.tokenId}`, devnet.info.contracts.nft, pending.hash],
  )
  // The service's own mint, already recorded as a portrait.
  const recorded = await mintTo(devnet.info.accounts.agents[3]!)
  const burnTx = `0x${'ab'.repeat(32)}`
  await db.query(
    `INSERT INTO portraits (token_id, burner, burn_tx_hash, dev_tx_hash, burn_amount_wei, image_cid, metadata_cid, mint_tx_hash, source) VALUES ($1, $2, $3, $3, $4, 'bafyimage', 'bafymeta', $5, 'x402-agent')`,
    [recorded.tokenId.toString(), devnet.info.accounts.agents[3]!, burnTx, (225_000n * E18).toString(), recorded.hash],
  )

  await indexer({ bus }).sync()
  const burns = published.filter((e) => e.type === 'burn')
  assert.deepEqual(burns.map((e) => e.data.tokenId), [foreign.tokenId.toString()], 'the service\'s own mints, sent or recorded, are the pipeline\'s to announce')
  assert.deepEqual(Object.keys(burns[0]!.data).sort(), ['amount', 'burner', 'cid', 'ipfsUrl', 'source', 'timestamp', 'tokenId', 'txHash'], 'the keys of the pipeline\'s burn events')
  assert.deepEqual({ ...burns[0]!.data, timestamp: undefined }, { txHash: foreign.hash, burner: devnet.info.accounts.agents[1]!, tokenId: foreign.tokenId.toString(), cid: null, ipfsUrl: null, source: 'chain', amount: null, timestamp: undefined })
  assert.equal(published.filter((e) => e.type === 'stats').length, 0, 'stats events come from the pipeline, in its one shape')

  // Indexing again (another instance, a restart) announces nothing twice.
  await db.query('DELETE FROM indexer_cursor')
  await indexer({ bus }).sync()
  assert.equal(published.filter((e) => e.type === 'burn').length, 1)
})

test('every burn the indexer sees reaches the stream once as a burn event, and renews the reads it changes', async () => {
  await indexer().sync()
  const published: Array<{ type: string; data: any }> = []
  const bus = createMemoryBus()
  bus.subscribe((event) => published.push(event))
  const fresh = createFreshness(bus)
  const before = fresh.stamp(['token', 'portraits', 'pool'])
  const plain = await burnLeg(DEAD, 5_000n)
  const toFund = await burnLeg(devnet.info.accounts.fundWallet, 5_000n)
  const chain = createChain({
    rpcUrl: devnet.url, publicRpcUrl: devnet.url, explorerUrl: 'https://megaexplorer.xyz',
    contracts: devnet.info.contracts, fundWallet: devnet.info.accounts.fundWallet, facilitator: devnet.info.accounts.facilitator,
  })
  const run = () => createIndexer({ db, chain, bus, fresh, log: pino({ level: 'silent' }), startBlock: BigInt(devnet.info.deployBlock), confirmations: 0, pollMs: 60_000, pageSize: 50 }).sync()
  const reached = await run()
  const burns = published.filter((e) => e.type === 'burn')
  assert.deepEqual(burns.map((e) => e.data.txHash), [plain], 'a transfer to the dead address is a burn; one to the fund wallet alone is not')
  assert.deepEqual({ ...burns[0]!.data, timestamp: undefined }, {
    txHash: plain, burner: devnet.info.accounts.demoHolder, tokenId: null, cid: null, ipfsUrl: null, source: 'transfer', amount: 5000, timestamp: undefined,
  })
  assert.ok(toFund)
  assert.notEqual(fresh.stamp(['token', 'portraits', 'pool']), before, 'token transfers renew balances and stats')
  assert.equal(fresh.block(), reached)
  await db.query('DELETE FROM indexer_cursor')
  await run()
  assert.equal(published.filter((e) => e.type === 'burn').length, 1, 'indexing again announces nothing twice')
})
