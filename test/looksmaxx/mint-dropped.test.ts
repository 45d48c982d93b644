import { test } from 'node:test'
import assert from 'node:assert/strict'
import { buildApp, useDevnet, type TestApp } from '../support/harness.ts'
import { createAgent, portraitBase64 } from '../support/agent.ts'
import { takeFirstNonce } from '../support/take-nonce.ts'
import { waitForSweeps } from '../support/sender-sweeps.ts'
import { TEST_DATABASE_URL, needsPostgres, onlyInLeg } from '../support/env.ts'
import type { TxSender } from '../../src/chain/sender/tx-sender.ts'
import { rpcCall } from '../support/rpc.ts'

/**
 * The minter key (devnet account 0) used outside the service while a mint waits: the stored
 * mint transaction's nonce goes to a transaction the service does not know, so the mint can
 * never be mined. The sender marks it dropped, and the mint step mints again under the next
 * attempt key: the paid submission still ends in exactly one NFT.
 */
const devnet = useDevnet()

for (const database of ['pglite', 'postgres'] as const) {
  test(`a mint whose nonce another transaction of the minter key used is minted again: exactly one NFT (${database})`, { skip: database === 'postgres' ? onlyInLeg('postgres', needsPostgres) : onlyInLeg('embedded') }, async () => {
    // Each backend's run starts from the deployed chain (the other's service is stopped).
    await devnet.reset()
    let app: (TestApp & { stop(): Promise<void> }) | undefined
    const rpc = (method: string, params: unknown[] = []) => rpcCall(devnet.url, method, params)
    try {
      app = await buildApp(devnet, { database, env: { RETRY_BASE_MS: '100', RETRY_MAX_MS: '400', WORKER_POLL_MS: '50' } })
      const minter: TxSender = app.ctx.pipeline.deps.minter
      const db = app.ctx.pipeline.deps.db
      // The first mint: stored and broadcast, then its nonce is taken by a plain transfer of
      // the same key (devnet account 0, the minter), sent outside the service, and mined.
      const taken = takeFirstNonce({ sender: minter, addressIndex: 0, rpcUrl: devnet.url, db, chainId: app.ctx.chain.info.chainId, match: (key) => key.startsWith('mint:') })

      const agent = await createAgent(app.url, devnet.url, 6)
      const image = await portraitBase64()
      await agent.buyTokens('1')
      const { burnTxHash, devTxHash } = await agent.burn()
      const [requirements] = (await app.get(`/api/x402/looksmaxx`)).body.accepts
      const { status, body } = await app.post(`/api/x402/looksmaxx`, {
        burnTxHash, devTxHash, burnerAddress: agent.address, image, imageType: 'image/jpeg', paymentPayload: await agent.signPayment(requirements),
      })
      assert.equal(status, 200, JSON.stringify(body))
      assert.equal(taken.length, 1, 'the first mint lost its nonce')
      assert.equal(((await rpc('eth_getTransactionReceipt', [taken[0]!.foreign])) as { status: string }).status, '0x1')
      assert.equal(await rpc('eth_getTransactionReceipt', [taken[0]!.hash]), null, 'the first mint never executed')

      const mints = (await db.query<{ idempotency_key: string; status: string; tx_hash: string }>("SELECT idempotency_key, status, tx_hash FROM chain_txs WHERE idempotency_key LIKE 'mint:%' ORDER BY nonce")).rows
      assert.deepEqual(mints.map((m) => [m.idempotency_key, m.status]), [[taken[0]!.key, 'dropped'], [`${taken[0]!.key}#2`, 'mined']])
      assert.equal(await agent.nftBalance(), 1n, 'exactly one NFT')
      assert.equal(await agent.ownerOf(BigInt(body.tokenId)), agent.address)
      const view = await app.get(`/api/x402/looksmaxx/${devTxHash}`)
      assert.equal(view.body.status, 'minted')
      assert.equal(view.body.result.tokenId, body.tokenId)

      // Later looks change nothing: the watch loop leaves the dropped one dropped (its looks
      // are waited for, so the check fails if the loop never ran).
      await waitForSweeps(minter)
      assert.equal((await minter.find(taken[0]!.key))?.status, 'dropped')
      assert.equal(await agent.nftBalance(), 1n)
    } finally {
      await rpc('evm_setAutomine', [true]).catch(() => {})
      await app?.stop()
    }
  })
}
