import { test, before } from 'node:test'
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { buildApp, useDevnet, type TestApp } from '../support/harness.ts'
import { createAgent, portraitBase64, type Agent } from '../support/agent.ts'
import { createTestDatabase } from '../support/postgres.ts'
import { TEST_DATABASE_URL, TEST_REDIS_URL, needsPostgresAndRedis, onlyInLeg } from '../support/env.ts'

const skip = onlyInLeg('postgres', needsPostgresAndRedis)

/**
 * Issue 10: an invalidation made in one service process reaches another sharing the same
 * PostgreSQL and Redis, and a client that carries a write's block gets an answer at least that
 * new from any instance. Two instances of the app, each with its own cache and bus connection.
 */
const devnet = useDevnet()
let pg: Awaited<ReturnType<typeof createTestDatabase>>
let a: TestApp & { stop(): Promise<void> }
let b: TestApp & { stop(): Promise<void> }
let agent: Agent
let image: string

before(async () => {
  if (skip) return
  pg = await createTestDatabase()
  // A channel of its own, so suites sharing the Redis server do not hear each other.
  const env = { DATABASE_URL: pg.url, REDIS_URL: TEST_REDIS_URL!, REDIS_PREFIX: `test-${randomBytes(4).toString('hex')}` }
  // Both on the one database and Redis channel (a DATABASE_URL in env is not the harness's to drop).
  a = await buildApp(devnet, { env })
  b = await buildApp(devnet, { env })
  agent = await createAgent(a.url, devnet.url, 7)
  await agent.buyTokens('5')
  image = await portraitBase64()
})
// The services stop before the devnet they read is released.
devnet.atEnd(async () => {
  await a?.stop()
  await b?.stop()
  await pg?.drop()
})

async function looksmaxxOn(app: TestApp) {
  const { burnTxHash, devTxHash } = await agent.burn()
  const response = await app.post(`/api/generate`, { burnTxHash, devTxHash, burnerAddress: agent.address, image, ...(await agent.signRedeem({ burnTxHash, devTxHash, image })) })
  assert.equal(response.status, 200, JSON.stringify(response.body))
  return { tokenId: response.body.tokenId as string, block: response.headers.get('x-block-number')! }
}

test('a write on one instance renews the cached reads of the other, through Redis', { skip }, async () => {
  const before = { gallery: (await b.get(`/api/gallery`)).body, stats: (await b.get(`/api/stats`)).body }
  assert.deepEqual((await b.get(`/api/gallery`)).body, before.gallery, 'b serves its cached gallery')
  // b applies the change once it has heard it on the bus and read it from the store (its read
  // models renew before the new version is visible): then its first read must show it.
  const seen = b.ctx.fresh.stamp(['portraits'])
  const { tokenId } = await looksmaxxOn(a)
  for (const deadline = Date.now() + 5_000; b.ctx.fresh.stamp(['portraits']) === seen; ) {
    assert.ok(Date.now() < deadline, 'b never applied the invalidation')
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  const gallery = (await b.get(`/api/gallery`)).body
  assert.equal(gallery.burns[0].tokenId, tokenId, 'the first read on b lists the portrait minted through a')
  const stats = (await b.get(`/api/stats`)).body
  assert.equal(stats.totalBurns, before.stats.totalBurns + 1)
})

test('a client that sends the write\'s block as X-Min-Block gets an answer at least that new from any instance', { skip }, async () => {
  await b.get(`/api/chadboard`)
  const { tokenId, block } = await looksmaxxOn(a)
  assert.match(block, /^\d+$/)
  const board = await b.get(`/api/chadboard`, { 'x-min-block': block })
  assert.ok(BigInt(board.headers.get('x-block-number')!) >= BigInt(block), 'b says its answer is as new as the write')
  const entry = board.body.entries.find((e: any) => e.address === agent.address)
  assert.equal(entry.totalBurns, 2)
  const gallery = await b.get(`/api/gallery?minBlock=${block}`)
  assert.equal(gallery.body.burns[0].tokenId, tokenId)
  assert.equal(entry.latestTimestamp, gallery.body.burns[0].timestamp, 'one time for one portrait, on PostgreSQL too')
})
