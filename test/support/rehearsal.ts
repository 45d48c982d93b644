import { mkdtemp, rm } from 'node:fs/promises'
import { readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { DEVNET_PRIVATE_KEYS, roles } from '../../src/chain/devnet-accounts.ts'
import type { RehearsalDevnet } from '../../src/devnet/rehearsal/start-rehearsal-devnet.ts'
import { startServiceProcess } from './service-process.ts'
import { startPublicRpcProxy, type PublicRpcBehaviour, type PublicRpcProxy } from '../../src/devnet/public-rpc-proxy.ts'

export type RehearsalProxy = PublicRpcProxy

/**
 * A public provider as the rehearsal plays it: eth_getLogs capped below the indexer's page
 * (INDEXER_PAGE_SIZE 2,000) in blocks and results, a request rate (5/s, an unauthenticated
 * endpoint's) that a backfill's bursts of block reads exceed (429 with Retry-After), 1 % 5xx,
 * 0.2 % requests never answered, websockets dropped after MegaETH's 30 s of silence.
 */
export const PUBLIC_PROVIDER = {
  maxLogsRange: 1_000,
  maxLogsResults: 500,
  requestsPerSecond: 5,
  serverErrorRate: 0.01,
  timeoutRate: 0.002,
  wsIdleMs: 30_000,
  logsErrorStyle: 'infura',
} satisfies PublicRpcBehaviour

/** The proxy in front of the rehearsal devnet: `limits` as PUBLIC_PROVIDER, or none (the baseline). */
export function startRehearsalProxy(target: string, limits: PublicRpcBehaviour | undefined): Promise<RehearsalProxy> {
  return startPublicRpcProxy(target, limits ?? {})
}

/**
 * The service as production runs it (the compiled entry, a process of its own) with the
 * mainnet profile (NETWORK=megaeth) and its RPC pointed at the proxy, over HTTP and websocket.
 * Overridden, because a devnet cannot reproduce it: the pool (its mainnet address derives from
 * Kumbaya's unrecorded factory) and the keys (devnet accounts 0–2: the NFT's owner, the
 * relayer's, the built-in facilitator; the payTo stays the profile's).
 */
export async function startMainnetService(devnet: RehearsalDevnet, proxy: { url: string; wsUrl: string }, env: Record<string, string> = {}) {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'b2c-rehearsal-'))
  const { deployment } = devnet.info
  const started = performance.now()
  const service = await startServiceProcess({
    NETWORK: 'megaeth',
    RPC_URL: proxy.url,
    RPC_WS_URL: proxy.wsUrl,
    CONTRACT_ADDRESSES: `pool=${deployment.contracts.pool}`,
    DATA_DIR: dataDir,
    MINTER_PRIVATE_KEY: DEVNET_PRIVATE_KEYS[roles.deployer],
    RELAYER_PRIVATE_KEY: DEVNET_PRIVATE_KEYS[roles.relayer],
    FACILITATOR_PRIVATE_KEY: DEVNET_PRIVATE_KEYS[roles.facilitator],
    RATE_LIMIT_WRITES_PER_MINUTE: '0',
    RATE_LIMIT_WALLET_WRITES_PER_MINUTE: '0',
    RATE_LIMIT_EXPENSIVE_PER_MINUTE: '0',
    ...env,
  })
  const listeningMs = performance.now() - started
  return {
    ...service,
    listeningMs,
    startedAt: started,
    /** Resident memory of the service process now, in bytes. */
    rssBytes(): number | undefined {
      try {
        const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${service.child.pid}/status`, 'utf8'))?.[1]
        return kb ? Number(kb) * 1024 : undefined
      } catch {
        return undefined
      }
    },
    async stop() {
      await service.stop()
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}

export type Readiness = { ready: boolean; indexed: number | null; head: number | null }

export async function readiness(serviceUrl: string): Promise<Readiness> {
  const response = await fetch(`${serviceUrl}/readyz`)
  const body = (await response.json()) as any
  const checks = body.status === 'ready' ? body.checks : body.error?.details?.checks
  // /readyz says the head (the rpc check) and how far behind it the indexer is.
  const head = checks?.rpc?.head == null ? null : Number(checks.rpc.head)
  const lag = checks?.indexer?.lag
  return { ready: response.status === 200, indexed: head !== null && typeof lag === 'number' ? head - lag : null, head }
}

/**
 * Waits until the service's indexer has read up to `head`: the moments it first answered
 * /readyz 200 and reached `head`, in ms after `since`. Polls every `pollMs` (each poll reads
 * the head through the same RPC: counted with the backfill's requests).
 */
export async function waitBackfilled(serviceUrl: string, head: number, options: { since: number; timeoutMs: number; pollMs?: number }) {
  let readyMs: number | undefined
  const deadline = Date.now() + options.timeoutMs
  for (;;) {
    const state = await readiness(serviceUrl).catch(() => undefined)
    if (state?.ready && readyMs === undefined) readyMs = performance.now() - options.since
    if (state?.indexed != null && state.indexed >= head) return { readyMs: readyMs ?? performance.now() - options.since, backfilledMs: performance.now() - options.since }
    if (Date.now() > deadline) throw new Error(`the backfill did not reach block ${head} within ${options.timeoutMs} ms (indexed ${state?.indexed})`)
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 250))
  }
}
