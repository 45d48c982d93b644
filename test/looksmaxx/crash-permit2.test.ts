import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { decodePaymentRequiredHeader, encodePaymentSignatureHeader } from '@x402/core/http'
import { buildApp, useDevnet } from '../support/harness.ts'
import { postJson } from '../support/fetch-json.ts'
import { createAgent, portraitBase64 } from '../support/agent.ts'
import { startServiceProcess } from '../support/service-process.ts'
import { stockPermit2Client } from '../support/x402-clients.ts'
import { statusOnceMinted } from '../support/builders.ts'
import { onlyInLeg } from '../support/env.ts'

// The service keeps its store in DATA_DIR (PGlite) whatever TEST_BACKEND says, so both legs of
// .ci/run would run the same thing: it runs in the embedded leg only.
const skip = onlyInLeg('embedded')

/**
 * A Permit2 payment through a service killed (SIGKILL) before or after its settlement: the
 * restarted service settles it (no mark yet) or finds it on chain (Permit2's nonce bitmap and
 * the proxy's transfer), and ends with exactly one settlement and one NFT. The killed service
 * is a process (the kill is the point); the restart is built in the test process on its store
 * (its DATA_DIR database, opened as `npm start` does), sparing a process boot per case.
 */
const E18 = 10n ** 18n
const devnet = useDevnet()
let dataDir: string
let image: string
const env = () => ({ RPC_URL: devnet.url, DATA_DIR: dataDir, RETRY_BASE_MS: '100', WORKER_POLL_MS: '100', LEASE_MS: '1500' })

before(async () => {
  if (skip) return
  dataDir = await mkdtemp(path.join(tmpdir(), 'b2c-crash-permit2-'))
  image = await portraitBase64()
})
after(async () => {
  if (skip) return
  await rm(dataDir, { recursive: true, force: true })
})

for (const [point, agentIndex] of [['after_settlement', 8], ['before_settlement', 9]] as const) {
  test(`a Permit2 payment, the service killed ${point.replaceAll('_', ' ')}: one settlement, one NFT`, { skip }, async () => {
    const crashing = await startServiceProcess({ ...env(), FAULT_CRASH_AT: point })
    const agent = await createAgent(crashing.url, devnet.url, agentIndex)
    await agent.buyTokens('1')
    const { burnTxHash, devTxHash } = await agent.burn()
    const body = { burnTxHash, devTxHash, burnerAddress: agent.address, image, imageType: 'image/jpeg' }
    const unpaid = await postJson(`${crashing.url}/api/x402/looksmaxx`, body)
    assert.equal(unpaid.status, 402)
    const payload = await stockPermit2Client(agent).createPaymentPayload(decodePaymentRequiredHeader(unpaid.headers.get('payment-required')!))
    const headers = { 'PAYMENT-SIGNATURE': encodePaymentSignatureHeader(payload) }
    const usdm = await agent.usdmBalance()
    await assert.rejects(postJson(`${crashing.url}/api/x402/looksmaxx`, body, headers), 'the process died mid-request')
    assert.equal(await crashing.exited, null, 'killed by a signal')

    const restarted = await buildApp(devnet, { env: env(), database: 'pglite', embeddedDatabase: 'thread' })
    let status: any
    let settlements: number
    try {
      status = await statusOnceMinted(async () => (await restarted.get(`/api/x402/looksmaxx/${burnTxHash}`)).body)
      assert.equal(status.status, 'minted', JSON.stringify(status))
      assert.equal(usdm - (await agent.usdmBalance()), E18, 'exactly one settlement')
      assert.equal(await agent.nftBalance(), 1n, 'exactly one mint')
      assert.equal(status.steps.filter((s: any) => s.step === 'settled').length, 1)
      const replay = await restarted.post(`/api/x402/looksmaxx`, body, headers)
      assert.equal(replay.status, 409)
      const { rows } = await restarted.ctx.db.query<{ n: string }>('SELECT count(*) AS n FROM chain_txs WHERE idempotency_key LIKE $1', [`settle:${agent.address.toLowerCase()}:%`])
      settlements = Number(rows[0]!.n)
    } finally {
      await restarted.stop()
    }
    assert.equal(settlements, 1, 'the service signed exactly one settlement')
  })
}
