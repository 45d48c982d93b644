import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { buildApp, useDevnet, type TestApp } from './harness.ts'
import { getJson, postJson } from './fetch-json.ts'
import { createAgent, portraitBase64 } from './agent.ts'
import { startServiceProcess } from './service-process.ts'
import { createTestDatabase } from './postgres.ts'
import { statusOnceMinted } from './builders.ts'

const E18 = 10n ** 18n

/**
 * The service is killed (SIGKILL) at a point of the saga, started again, and must finish
 * the owed portrait with exactly one settlement and one mint. Before settlement (claimed,
 * settle never called) the restarted worker settles; after it, it reads the chain.
 *
 * The killed service is a process of its own (the kill is the point); the restart is the
 * service built in the test process on the same store and keys (`restartOn`), which spares a
 * process boot (~2.5 s of CPU) per case and reads the records through the service's own store.
 */
export function crashSuite(database: 'pglite' | 'postgres') {
  const devnet = useDevnet()
  let dataDir: string
  let pg: Awaited<ReturnType<typeof createTestDatabase>> | undefined
  let image: string
  const env = () => ({
    RPC_URL: devnet.url,
    DATA_DIR: dataDir,
    RETRY_BASE_MS: '100',
    WORKER_POLL_MS: '100',
    LEASE_MS: '1500',
    ...(pg ? { DATABASE_URL: pg.url } : {}),
  })
  /** The service started again on the killed one's store (its DATA_DIR database or PostgreSQL), as `npm start` opens it. */
  const restartOn = () => buildApp(devnet, { env: env(), database: 'pglite', embeddedDatabase: 'thread' })

  before(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'b2c-crash-'))
    pg = database === 'postgres' ? await createTestDatabase() : undefined
    image = await portraitBase64()
  })
  after(async () => {
    await pg?.drop()
    await rm(dataDir, { recursive: true, force: true })
  })

  /**
   * What the service recorded: the settlement transactions it signed for this payer (rows of
   * its sender's chain_txs), and the burn events stored for the token.
   */
  async function recordsOf(service: TestApp, payer: string, tokenId: string) {
    const { rows } = await service.ctx.db.query<{ n: string }>('SELECT count(*) AS n FROM chain_txs WHERE idempotency_key LIKE $1', [`settle:${payer.toLowerCase()}:%`])
    const events = await service.ctx.db.query<{ data: any }>("SELECT data FROM events WHERE type = 'burn' AND data->>'tokenId' = $1", [tokenId])
    return { settlements: Number(rows[0]!.n), burnEvents: events.rows.map((r) => (typeof r.data === 'string' ? JSON.parse(r.data) : r.data)) }
  }

  for (const [point, agentIndex] of [['before_settlement', 7], ['after_settlement', 5], ['after_mint_broadcast', 6]] as const) {
    test(`killed ${point.replaceAll('_', ' ')}, restarted, it finishes with one settlement and one mint`, async () => {
      const crashing = await startServiceProcess({ ...env(), FAULT_CRASH_AT: point })
      const agent = await createAgent(crashing.url, devnet.url, agentIndex)
      await agent.buyTokens('1')
      const { burnTxHash, devTxHash } = await agent.burn()
      const requirements = (await getJson(`${crashing.url}/api/x402/looksmaxx`)).body.accepts[0]
      const usdm = await agent.usdmBalance()
      const body = { burnTxHash, devTxHash, burnerAddress: agent.address, image, paymentPayload: await agent.signPayment(requirements) }
      await assert.rejects(postJson(`${crashing.url}/api/x402/looksmaxx`, body), 'the process died mid-request')
      assert.equal(await crashing.exited, null, 'killed by a signal')

      const restarted = await restartOn()
      let status: any
      let records: Awaited<ReturnType<typeof recordsOf>>
      try {
        status = await statusOnceMinted(async () => (await restarted.get(`/api/x402/looksmaxx/${burnTxHash}`)).body)
        assert.equal(status.status, 'minted', JSON.stringify(status))
        assert.equal(usdm - (await agent.usdmBalance()), E18, 'exactly one settlement')
        assert.equal(await agent.nftBalance(), 1n, 'exactly one mint')
        assert.equal(await agent.ownerOf(BigInt(status.result.tokenId)), agent.address)
        assert.equal(status.steps.filter((s: any) => s.step === 'settled').length, 1)
        // Submitting again after the restart is a replay, not a second portrait.
        const replay = await restarted.post(`/api/x402/looksmaxx`, body)
        assert.equal(replay.status, 409)
        assert.equal(replay.body.error.code, 'BURN_ALREADY_USED')
        // Counted where the service records what it signs, not only by the chain (which would
        // refuse a reused nonce anyway).
        records = await recordsOf(restarted, agent.address, status.result.tokenId)
      } finally {
        await restarted.stop()
      }
      assert.equal(records.settlements, 1, 'the service signed exactly one settlement')
      assert.equal(records.burnEvents.length, 1, 'the stream got the portrait once')
      assert.equal(records.burnEvents[0].cid, status.result.ipfsCid)
      assert.equal(records.burnEvents[0].txHash, burnTxHash)
    })
  }
}
