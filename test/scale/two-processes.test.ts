import { test, before } from 'node:test'
import assert from 'node:assert/strict'
import { useDevnet } from '../support/harness.ts'
import { getJson, postJson } from '../support/fetch-json.ts'
import { createAgent, portraitBase64, type Agent } from '../support/agent.ts'
import { openStream } from '../support/sse.ts'
import { TEST_DATABASE_URL, TEST_REDIS_URL, needsPostgresAndRedis, onlyInLeg } from '../support/env.ts'
import { startService, sharedBackends, type ServiceProcess } from './processes.ts'

/**
 * Two service processes, as production runs them: one PostgreSQL, one Redis, one chain behind
 * an external RPC. Both take every write at once; the chain and the store must show one
 * outcome per request, and every stream client of either process hears everything.
 */
// Two processes share PostgreSQL and Redis whatever TEST_BACKEND says: the PostgreSQL leg runs it.
const skip = onlyInLeg('postgres', needsPostgresAndRedis)

const devnet = useDevnet()
let backends: Awaited<ReturnType<typeof sharedBackends>>
let services: ServiceProcess[] = []

before(async () => {
  if (skip) return
  backends = await sharedBackends(devnet.url)
  // Both serve the API; both run a worker and an indexer (the indexers take turns).
  services = await Promise.all([startService(backends.env), startService(backends.env)])
})
// The services stop before the devnet they read is released.
devnet.atEnd(async () => {
  await Promise.all(services.map((s) => s.stop()))
  await backends?.drop()
})

async function rpc(method: string, params: unknown[] = []): Promise<any> {
  const response = await fetch(devnet.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
  return ((await response.json()) as { result: unknown }).result
}

/** Nonces of every transaction `from` sent in blocks [fromBlock, toBlock], in block order. */
async function noncesSent(from: string, fromBlock: number, toBlock: number): Promise<number[]> {
  const nonces: number[] = []
  for (let n = fromBlock; n <= toBlock; n++) {
    const block = await rpc('eth_getBlockByNumber', [`0x${n.toString(16)}`, true])
    for (const tx of block.transactions) if (tx.from.toLowerCase() === from.toLowerCase()) nonces.push(Number(tx.nonce))
  }
  return nonces
}

async function signGaslessBurn(agent: Agent, url: string) {
  let prepared = (await getJson(`${url}/api/gasless/burn?address=${agent.address}`)).body
  if (!prepared.ready) {
    await agent.send({ to: prepared.approval.transaction.to, data: prepared.approval.transaction.data })
    prepared = (await getJson(`${url}/api/gasless/burn?address=${agent.address}`)).body
  }
  const typed = prepared.signTypedData
  const message = { burner: typed.message.burner, nonce: BigInt(typed.message.nonce), deadline: BigInt(typed.message.deadline) }
  const signature = await agent.account.signTypedData({ domain: typed.domain, types: typed.types, primaryType: typed.primaryType, message })
  return { burner: agent.address, deadline: Number(message.deadline), signature }
}

test('duplicate looksmaxx submissions and gasless relays sent to both processes at once: one NFT per burn, consecutive nonces, every event on every stream', { skip, timeout: 240_000 }, async () => {
  const [a, b] = services as [ServiceProcess, ServiceProcess]
  const firstBlock = Number(await rpc('eth_blockNumber')) + 1
  const keys = { minter: devnet.info.accounts.deployer, relayer: devnet.info.accounts.relayer, facilitator: devnet.info.accounts.facilitator }
  const streams = await Promise.all([a, a, b, b].map((s) => openStream(`${s.url}/api/events`)))
  await Promise.all(streams.map((s) => s.waitFor((e) => e.event === 'stats')))

  const image = await portraitBase64()
  const requirements = (await getJson(`${a.url}/api/x402/looksmaxx`)).body.accepts[0]
  const payers = await Promise.all([5, 6, 7].map((i) => createAgent(a.url, devnet.url, i)))
  const relayed = await Promise.all([8, 9].map((i) => createAgent(b.url, devnet.url, i)))
  // Each agent's own transactions in sequence (one nonce stream per wallet), agents in parallel.
  const burns = await Promise.all(payers.map(async (agent) => { await agent.buyTokens('1'); return agent.burn() }))
  const gasless = await Promise.all(relayed.map(async (agent) => { await agent.buyTokens('1'); return signGaslessBurn(agent, b.url) }))
  const balancesBefore = await Promise.all(relayed.map((agent) => agent.coinBalance()))

  // Every write twice, once to each process, all at the same time.
  const submissions = await Promise.all(
    payers.map(async (agent, i) => {
      const body = { ...burns[i]!, burnerAddress: agent.address, image, paymentPayload: await agent.signPayment(requirements) }
      return Promise.all([postJson(`${a.url}/api/x402/looksmaxx`, body), postJson(`${b.url}/api/x402/looksmaxx`, body)])
    }),
  )
  const relays = await Promise.all(gasless.map((body) => Promise.all([postJson(`${a.url}/api/gasless/burn`, body), postJson(`${b.url}/api/gasless/burn`, body)])))

  const tokenIds: string[] = []
  for (const [i, pair] of submissions.entries()) {
    const statuses = pair.map((r) => r.status).sort()
    assert.deepEqual(statuses, [200, 409], `one submission wins, the duplicate is told so: ${JSON.stringify(pair.map((r) => r.body))}`)
    const won = pair.find((r) => r.status === 200)!.body
    const lost = pair.find((r) => r.status === 409)!.body
    assert.equal(lost.error.code, 'BURN_ALREADY_USED')
    tokenIds.push(String(won.tokenId))
    assert.equal(await payers[i]!.nftBalance(), 1n, 'one NFT per burn')
    assert.equal((await payers[i]!.ownerOf(BigInt(won.tokenId))).toLowerCase(), payers[i]!.address.toLowerCase())
    // No lost submission: either process answers its status, minted.
    for (const s of [a, b]) {
      const status = await getJson(`${s.url}/api/x402/looksmaxx/${burns[i]!.burnTxHash}`)
      assert.equal(status.body.status, 'minted')
    }
  }
  assert.equal(new Set(tokenIds).size, payers.length)

  const relayHashes: string[] = []
  for (const pair of relays) {
    for (const r of pair) assert.equal(r.status, 200, JSON.stringify(r.body))
    assert.equal(pair[0]!.body.txHash, pair[1]!.body.txHash, 'the same signature relays once, whichever process takes it')
    relayHashes.push(pair[0]!.body.txHash)
  }
  for (const [i, agent] of relayed.entries()) {
    assert.equal(balancesBefore[i]! - (await agent.coinBalance()), 225_000n * 10n ** 18n, 'one burn of 225,000 tokens per signature')
  }

  // Consecutive nonces for every key of the service, across both processes: no gap, no reuse.
  const lastBlock = Number(await rpc('eth_blockNumber'))
  for (const [role, address] of Object.entries(keys)) {
    const nonces = await noncesSent(address, firstBlock, lastBlock)
    const sorted = [...nonces].sort((x, y) => x - y)
    const expected = sorted.length ? Array.from({ length: sorted.length }, (_, k) => sorted[0]! + k) : []
    assert.deepEqual(sorted, expected, `${role} nonces are consecutive`)
    assert.equal(Number(await rpc('eth_getTransactionCount', [address, 'pending'])), Number(await rpc('eth_getTransactionCount', [address, 'latest'])), `${role} has nothing stuck behind a gap`)
  }
  assert.equal((await noncesSent(keys.relayer, firstBlock, lastBlock)).length, relayed.length, 'one relay per signature')
  assert.equal((await noncesSent(keys.minter, firstBlock, lastBlock)).length, payers.length, 'one mint per accepted submission')
  assert.equal((await noncesSent(keys.facilitator, firstBlock, lastBlock)).length, payers.length, 'one settlement per accepted submission')

  // Every stream client of either process hears every portrait and every relayed burn.
  for (const stream of streams) {
    for (const tokenId of tokenIds) await stream.waitFor((e) => e.event === 'burn' && String(e.data.tokenId) === tokenId, 20_000)
    for (const txHash of relayHashes) await stream.waitFor((e) => e.event === 'burn' && e.data.txHash === txHash, 20_000)
  }
  await Promise.all(streams.map((s) => s.close()))
})
