import { test, before } from 'node:test'
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { buildApp, useDevnet, type TestApp } from '../support/harness.ts'
import { createAgent, portraitBase64 } from '../support/agent.ts'
import { createTestDatabase } from '../support/postgres.ts'
import { openStream } from '../support/sse.ts'
import { TEST_DATABASE_URL, TEST_REDIS_URL, needsPostgresAndRedis, onlyInLeg } from '../support/env.ts'

const skip = onlyInLeg('postgres', needsPostgresAndRedis)

const devnet = useDevnet()
let pg: Awaited<ReturnType<typeof createTestDatabase>>
// Two instances of the service, each with its own bus connection and stream clients (built in
// this process: what crosses between them is Redis, not a process boundary).
let instances: Array<TestApp & { stop(): Promise<void> }> = []

before(async () => {
  if (skip) return
  pg = await createTestDatabase()
  const env = {
    DATABASE_URL: pg.url,
    REDIS_URL: TEST_REDIS_URL!,
    // A channel of its own, so suites sharing the Redis server do not hear each other.
    REDIS_PREFIX: `test-${randomBytes(4).toString('hex')}`,
  }
  instances = [await buildApp(devnet, { env }), await buildApp(devnet, { env })]
})
// The instances stop before the devnet they read is released.
devnet.atEnd(async () => {
  await Promise.all(instances.map((i) => i.stop()))
  await pg?.drop()
})

test('a burn finished by one instance reaches the stream clients of the other, through Redis', { skip }, async () => {
  const [a, b] = instances as [(typeof instances)[0], (typeof instances)[0]]
  const listener = await openStream(`${b.url}/api/events`)
  await listener.waitFor((e) => e.event === 'stats')
  const agent = await createAgent(a.url, devnet.url, 5)
  await agent.buyTokens('1')
  const { burnTxHash, devTxHash } = await agent.burn()
  const image = await portraitBase64()
  const response = await a.post(`/api/generate`, { burnTxHash, devTxHash, burnerAddress: agent.address, image, ...(await agent.signRedeem({ burnTxHash, devTxHash, image })) })
  assert.equal(response.status, 200, JSON.stringify(response.body))
  // The burn transfer itself is announced too (tokenId null); the portrait's event carries its token.
  const burn = await listener.waitFor((e) => e.event === 'burn' && e.data.txHash === burnTxHash && e.data.tokenId !== null)
  assert.equal(burn.data.tokenId, response.body.tokenId)
  assert.match(burn.id!, /^\d+$/)
  await listener.close()
})
