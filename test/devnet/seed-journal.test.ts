import { test, after } from 'node:test'
import assert from 'node:assert/strict'
import { readFile, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { createPublicClient, http, parseAbi, type Address } from 'viem'
import { startDevnet, type Devnet } from '../../src/devnet/start-devnet.ts'
import { seedKey, type SeedJournal } from '../../src/devnet/seed-journal.ts'
import { devnetAccounts } from '../../src/chain/devnet-accounts.ts'

/**
 * The journal of the devnet seed (.cache/devnet) replays into the chain a fresh seed makes, and
 * a journal recorded days ago replays with its clock moved to now: the same proposals in the
 * same states, the same balances, the last block at the wall clock.
 */
const serviceUrl = `http://seed-journal-test-${process.pid}.invalid`
const agentUri = `${serviceUrl}/.well-known/agent-registration.json`
const journalFile = async () => path.join(process.cwd(), '.cache', 'devnet', `${await seedKey(agentUri)}.json`)
const started: Devnet[] = []
after(async () => {
  await Promise.all(started.map((d) => d.close()))
  await rm(await journalFile(), { force: true })
})

async function snapshot(devnet: Devnet) {
  const client = createPublicClient({ transport: http(devnet.url) })
  const governance = devnet.info.contracts.governance as Address
  const states = await Promise.all(
    [1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n].map((id) =>
      client.readContract({ address: governance, abi: parseAbi(['function state(uint256) view returns (uint8)']), functionName: 'state', args: [id] }),
    ),
  )
  const erc20 = parseAbi(['function balanceOf(address) view returns (uint256)'])
  const balances = await Promise.all(
    devnetAccounts().flatMap((a) =>
      [devnet.info.contracts.token, devnet.info.contracts.secondToken, devnet.info.contracts.usdm].map((token) =>
        client.readContract({ address: token as Address, abi: erc20, functionName: 'balanceOf', args: [a.address] }),
      ),
    ),
  )
  const latest = await client.getBlock({ blockTag: 'latest' })
  return { states, balances, blockNumber: latest.number, clockLag: Math.abs(Number(latest.timestamp) - Date.now() / 1000) }
}

test('a journaled seed recorded three days ago replays into the chain a fresh seed makes, at the wall clock', async () => {
  const fresh = await startDevnet({ port: 0, serviceUrl })
  started.push(fresh)
  assert.equal(fresh.seed, 'deployed')
  const expected = await snapshot(fresh)

  // Age the journal: as if recorded three days ago (every timestamp three days earlier).
  const file = await journalFile()
  const journal = JSON.parse(await readFile(file, 'utf8')) as SeedJournal
  const age = 3 * 86_400
  journal.nowSeconds -= age
  journal.genesisTime -= age
  for (const entry of journal.entries) if (entry.block) entry.block.timestamp -= age
  await writeFile(file, JSON.stringify(journal))

  const replayed = await startDevnet({ port: 0, serviceUrl })
  started.push(replayed)
  assert.equal(replayed.seed, 'replayed')
  assert.deepEqual(replayed.info.contracts, fresh.info.contracts)
  assert.equal(replayed.info.deployBlock, fresh.info.deployBlock)
  assert.equal(replayed.info.agentId, fresh.info.agentId)
  const actual = await snapshot(replayed)
  assert.deepEqual(actual.states, expected.states)
  assert.deepEqual(actual.balances, expected.balances)
  assert.equal(actual.blockNumber, expected.blockNumber)
  assert.ok(actual.clockLag <= 5, `the last block is at the wall clock (off by ${actual.clockLag} s)`)
})

test('a journal that no longer replays (a transaction hash differs) falls back to a fresh deployment', async () => {
  const file = await journalFile()
  const journal = JSON.parse(await readFile(file, 'utf8')) as SeedJournal
  const tx = journal.entries.find((e) => e.hash)!
  tx.hash = `0x${'00'.repeat(32)}`
  await writeFile(file, JSON.stringify(journal))
  const devnet = await startDevnet({ port: 0, serviceUrl })
  started.push(devnet)
  assert.equal(devnet.seed, 'deployed')
  // ...and journals the seed again, so the next boot replays.
  const rewritten = JSON.parse(await readFile(file, 'utf8')) as SeedJournal
  assert.notEqual(rewritten.entries.find((e) => e.hash)!.hash, `0x${'00'.repeat(32)}`)
})
