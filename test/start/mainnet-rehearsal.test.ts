// test: own process
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startRehearsalDevnet, type RehearsalDevnet } from '../../src/devnet/rehearsal/start-rehearsal-devnet.ts'
import { rehearsalWallet } from '../../src/devnet/rehearsal/fill-history.ts'
import { MAINNET } from '../../src/devnet/rehearsal/mainnet-addresses.ts'
import { PUBLIC_PROVIDER, startMainnetService, startRehearsalProxy, waitBackfilled, type RehearsalProxy } from '../support/rehearsal.ts'
import { checkRehearsalReads, eventsMatchChain, runRehearsalFlows } from '../support/rehearsal-flows.ts'
import { onlyInLeg } from '../support/env.ts'

// The rehearsal's service keeps its store in DATA_DIR whatever TEST_BACKEND says, so both legs
// of .ci/run would run the same thing: it runs in the embedded leg only.
const skip = onlyInLeg('embedded')

/**
 * The rehearsal's code path at a small history (`npm run rehearse` runs it at mainnet size):
 * the contracts at their mainnet addresses, the service started as production with the mainnet
 * deployment behind the public-provider proxy (a range cap small enough to be met), a backfill
 * from block 0, then the looksmaxx, the gasless burn and every read against the chain.
 */
const SCALE = { wallets: 40, burns: 300, nfts: 60, blocks: 2_000, swaps: 10 }
let devnet: RehearsalDevnet
let proxy: RehearsalProxy
let service: Awaited<ReturnType<typeof startMainnetService>>

before(async () => {
  if (skip) return
  devnet = await startRehearsalDevnet({ scale: SCALE })
  proxy = await startRehearsalProxy(devnet.url, { ...PUBLIC_PROVIDER, maxLogsRange: 500, maxLogsResults: 200, requestsPerSecond: 50 })
  service = await startMainnetService(devnet, proxy)
})
after(async () => {
  if (skip) return
  await service?.stop()
  await proxy?.close()
  await devnet?.close()
})

test('the contracts answer at their mainnet addresses', { skip }, async () => {
  for (const address of [MAINNET.token, MAINNET.nft, MAINNET.relayer, MAINNET.referral, MAINNET.usdmForwarder, MAINNET.quoterV2, MAINNET.swapRouter, MAINNET.identityRegistry, MAINNET.reputationRegistry]) {
    const response = await fetch(devnet.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getCode', params: [address, 'latest'] }) })
    assert.ok(((await response.json()) as { result: string }).result.length > 100, `no code at ${address}`)
  }
})

test('the mainnet deployment backfills the history through the proxy, then the looksmaxx, the gasless burn and every read match the chain', { skip }, async () => {
  await waitBackfilled(service.url, devnet.info.history.head, { since: service.startedAt, timeoutMs: 120_000 })
  // The range cap was met (2,000 blocks in pages of at most 500) and nothing was lost: every burn and mint is an event.
  assert.ok((proxy.countsByMethod().eth_getLogs ?? 0) >= 4)
  // The caps were met and cost nothing.
  assert.ok(proxy.faults().logsRange + proxy.faults().logsResults > 0, JSON.stringify(proxy.faults()))
  const events = await eventsMatchChain(service.url, devnet.url, devnet.info.deployment.contracts)
  assert.deepEqual(events, { indexed: SCALE.burns + SCALE.nfts, chain: SCALE.burns + SCALE.nfts, ok: true })

  const flows = await runRehearsalFlows(service.url, devnet.url)
  for (const flow of flows) assert.ok(flow.ok, `${flow.flow}: ${flow.detail}`)
  const reads = await checkRehearsalReads(service.url, devnet.url, devnet.info, { wallet: rehearsalWallet(3), tokenId: 5n })
  const failed = reads.filter((r) => !r.ok)
  assert.deepEqual(failed, [], failed.map((r) => `${r.path}: ${r.detail}`).join('\n'))
  assert.ok(reads.length > 40)
})
