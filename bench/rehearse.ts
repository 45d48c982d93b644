/**
 * The mainnet rehearsal (`npm run rehearse`): a devnet holding the contracts at their MegaETH
 * mainnet addresses with a history of mainnet size, a public-provider-like proxy in front of
 * it, and the service as production runs it (the compiled entry, its own process, the mainnet
 * deployment) backfilling through the proxy; then a paid looksmaxx, a gasless burn and every
 * read, each compared with the chain. The baseline, in the same run: the same backfill through
 * the proxy with no limits. REHEARSE_SCALE=short (a tenth) or REHEARSE_WALLETS, _BURNS, _NFTS,
 * _BLOCKS, _SWAPS size the history; REHEARSE_TIMEOUT_S bounds each backfill (default 1200).
 */
import { startRehearsalDevnet } from '../src/devnet/rehearsal/start-rehearsal-devnet.ts'
import { MAINNET_SCALE, rehearsalWallet, type HistoryScale } from '../src/devnet/rehearsal/fill-history.ts'
import { PUBLIC_PROVIDER, startMainnetService, startRehearsalProxy, waitBackfilled } from '../test/support/rehearsal.ts'
import { checkRehearsalReads, eventsMatchChain, runRehearsalFlows } from '../test/support/rehearsal-flows.ts'
import { table } from './support.ts'
import { runDate, yesNo, type BenchResult } from './summary.ts'

export function rehearsalScale(env = process.env): HistoryScale {
  const base: HistoryScale = env.REHEARSE_SCALE === 'short'
    ? { wallets: 500, burns: 5_000, nfts: 500, blocks: 20_000, swaps: 200 }
    : env.REHEARSE_SCALE === 'tiny' ? { wallets: 50, burns: 300, nfts: 100, blocks: 3_000, swaps: 20 } : MAINNET_SCALE
  const pick = (name: string, fallback: number) => (env[`REHEARSE_${name}`] ? Number(env[`REHEARSE_${name}`]) : fallback)
  return { wallets: pick('WALLETS', base.wallets), burns: pick('BURNS', base.burns), nfts: pick('NFTS', base.nfts), blocks: pick('BLOCKS', base.blocks), swaps: pick('SWAPS', base.swaps) }
}

const s = (ms: number) => (ms / 1000).toFixed(1)
const mb = (bytes: number | undefined) => (bytes === undefined ? 'n/a' : `${Math.round(bytes / 1024 / 1024)} MB`)

export async function benchRehearse(scale = rehearsalScale()): Promise<BenchResult> {
  const timeoutMs = Number(process.env.REHEARSE_TIMEOUT_S ?? 1200) * 1000
  const log = (line: string) => console.error(line)
  const devnet = await startRehearsalDevnet({ scale, log })
  const { history } = devnet.info
  // The logs the indexer reads: both legs of each burn, each portrait mint, each swap.
  const events = history.burnLegs + history.nftTransfers + history.swaps
  const backfill = async (limits: Record<string, unknown> | undefined) => {
    const proxy = await startRehearsalProxy(devnet.url, limits)
    const service = await startMainnetService(devnet, proxy)
    try {
      const times = await waitBackfilled(service.url, history.head, { since: service.startedAt, timeoutMs, pollMs: 500 })
      return { proxy, service, ...times, requests: proxy.requests(), byMethod: proxy.countsByMethod(), faults: proxy.faults(), rss: service.rssBytes() }
    } catch (error) {
      await service.stop()
      await proxy.close()
      throw error
    }
  }
  try {
    log('baseline: the backfill through the proxy without limits')
    const base = await backfill(undefined)
    await base.service.stop()
    await base.proxy.close()
    log(`baseline backfilled in ${s(base.backfilledMs)} s; now through the public-provider limits ${JSON.stringify(PUBLIC_PROVIDER)}`)
    const run = await backfill({ ...PUBLIC_PROVIDER })
    let flows: Awaited<ReturnType<typeof runRehearsalFlows>> = []
    let reads: Awaited<ReturnType<typeof checkRehearsalReads>> = []
    let rssAfter: number | undefined
    let events0 = { indexed: 0, chain: 0, ok: false }
    try {
      events0 = await eventsMatchChain(run.service.url, devnet.url, devnet.info.deployment.contracts)
      flows = await runRehearsalFlows(run.service.url, devnet.url)
      reads = await checkRehearsalReads(run.service.url, devnet.url, devnet.info, { wallet: rehearsalWallet(3), tokenId: 5n })
      rssAfter = run.service.rssBytes()
    } finally {
      await run.service.stop()
      await run.proxy.close()
    }
    const perSecond = (ms: number) => events / ((ms) / 1000)
    const matched = reads.filter((r) => r.ok).length
    const flowsOk = flows.every((f) => f.ok) && events0.ok
    const scaleText = `${scale.burns} burns by ${scale.wallets} wallets, ${scale.nfts} NFTs, ${scale.swaps} swaps, ${history.head} blocks`
    const full = scale.burns >= MAINNET_SCALE.burns && scale.wallets >= MAINNET_SCALE.wallets && scale.nfts >= MAINNET_SCALE.nfts && scale.blocks >= MAINNET_SCALE.blocks
    const rows = [
      { measure: 'history', 'through the proxy': `${scaleText}: ${history.transactions} transactions written in ${s(history.fillMs)} s (contracts placed in ${s(devnet.info.deployMs)} s)`, baseline: '' },
      { measure: 'events backfilled (burn legs, mints, swaps)', 'through the proxy': String(events), baseline: String(events) },
      { measure: 'backfill: process start to indexed head', 'through the proxy': `${s(run.backfilledMs)} s`, baseline: `${s(base.backfilledMs)} s` },
      { measure: 'events per second', 'through the proxy': perSecond(run.backfilledMs).toFixed(0), baseline: perSecond(base.backfilledMs).toFixed(0) },
      { measure: 'RPC requests (HTTP; /readyz polls included)', 'through the proxy': String(run.requests), baseline: String(base.requests) },
      { measure: 'RPC requests per backfilled event', 'through the proxy': (run.requests / events).toFixed(3), baseline: (base.requests / events).toFixed(3) },
      { measure: 'eth_getLogs calls', 'through the proxy': String(run.byMethod.eth_getLogs ?? 0), baseline: String(base.byMethod.eth_getLogs ?? 0) },
      { measure: 'faults met (range, results, 429, 5xx, timeouts)', 'through the proxy': Object.entries(run.faults).map(([k, v]) => `${k} ${v}`).join(', ') || 'n/a', baseline: 'none' },
      { measure: 'events published vs burn transactions and portrait transfers on chain', 'through the proxy': `${events0.indexed} vs ${events0.chain}: ${events0.ok ? 'equal (none lost, none twice)' : 'DIFFERENT'}`, baseline: '' },
      { measure: 'start to ready (/readyz 200)', 'through the proxy': `${s(run.readyMs)} s`, baseline: `${s(base.readyMs)} s` },
      { measure: 'service RSS after backfill / after flows and reads', 'through the proxy': `${mb(run.rss)} / ${mb(rssAfter)}`, baseline: mb(base.rss) },
      ...flows.map((f) => ({ measure: f.flow, 'through the proxy': `${f.ok ? 'ok' : 'FAILED'} in ${s(f.ms)} s: ${f.detail}`, baseline: '' })),
      { measure: 'reads matching the chain', 'through the proxy': `${matched} of ${reads.length}`, baseline: '' },
    ]
    const failed = reads.filter((r) => !r.ok)
    const section = [
      full ? `Full mainnet scale (${scaleText}).` : `**Shorter than mainnet scale** (${scaleText}); the full run is \`npm run rehearse\` (defaults: ${MAINNET_SCALE.burns} burns by ${MAINNET_SCALE.wallets} wallets, ${MAINNET_SCALE.nfts} NFTs, ${MAINNET_SCALE.blocks} blocks, ${MAINNET_SCALE.swaps} swaps).`,
      `Proxy limits: ${JSON.stringify(PUBLIC_PROVIDER)}.`,
      '',
      table(rows),
      ...(failed.length ? ['', 'Reads that did not match:', '', table(failed.map((r) => ({ path: r.path, detail: r.detail })))] : []),
    ].join('\n')
    const ratio = base.backfilledMs / run.backfilledMs
    return {
      section,
      headlines: [{
        name: 'rehearse',
        figure: `${perSecond(run.backfilledMs).toFixed(0)} events/s backfilled through the public-provider proxy (${events} events, ${s(run.backfilledMs)} s), ${(run.requests / events).toFixed(3)} RPC requests per event; ready in ${s(run.readyMs)} s; RSS ${mb(rssAfter)}; flows ${flowsOk ? 'ok' : 'FAILED'}; ${matched}/${reads.length} reads match the chain${full ? '' : ' (shorter history)'}`,
        baseline: `the same backfill without limits: ${perSecond(base.backfilledMs).toFixed(0)} events/s, ${(base.requests / events).toFixed(3)} requests per event`,
        ratio: ratio.toFixed(2),
        target: 'every flow and read matches the chain; no event lost',
        met: yesNo(flowsOk && matched === reads.length),
        date: runDate(),
      }],
    }
  } finally {
    await devnet.close()
  }
}
