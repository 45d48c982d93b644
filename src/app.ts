import path from 'node:path'
import type { Logger } from 'pino'
import { multicall3Abi } from 'viem'
import { ConfigError, StartupError, type Config } from './config/load.ts'
import { createLogger } from './config/logger.ts'
import { redactUrl, secretUrlsOf } from './config/redact-url.ts'
import type { Context } from './context.ts'
import { chatAgent } from './chat/agent.ts'
import { createChain, type Chain } from './chain/clients.ts'
import { readConfiguredDeployment, readDevnetDeployment, withOverridesNamed, type Deployment } from './chain/deployment.ts'
import { PUBLIC_MAINNET_RPC } from './chain/constants.ts'
import { missingContracts } from './chain/contract-names.ts'
import { CONTRACT_VARIABLE, absentFor } from './chain/not-deployed.ts'
import { openDb, resetData, serviceDbConfig, type Db } from './store/db.ts'
import { getMeta, setMeta } from './store/meta.ts'
import { createResponseCache } from './cache/response-cache.ts'
import { createFreshness } from './cache/freshness.ts'
import { catchUp } from './cache/catch-up.ts'
import { createProfileCache } from './chain/reads/profile-cache.ts'
import { createPortraitProjection } from './store/portrait-projection.ts'
import { BOARD_SIZE } from './store/portraits.ts'
import { createHttpServer } from './http/server.ts'
import { mountWeb } from './web/routes.ts'
import { operations as registry } from './operations/index.ts'
import type { AnyOperation } from './operations/define.ts'
import { resolveHotKeys } from './chain/hot-keys.ts'
import { createReceiptIssuer } from './receipts/issuer.ts'
import { createTxSender } from './chain/sender/tx-sender.ts'
import { createBuiltinFacilitator } from './adapters/facilitator/builtin.ts'
import { createHttpFacilitator } from './adapters/facilitator/http.ts'
import { createChainVerifier } from './adapters/facilitator/verify-on-chain.ts'
import type { Facilitator } from './adapters/facilitator/port.ts'
import { createImageGenerator } from './adapters/image/index.ts'
import { createIpfsPinner } from './adapters/ipfs/index.ts'
import type { IpfsPinner } from './adapters/ipfs/port.ts'
import { createMemoryBus } from './adapters/bus/memory.ts'
import { reportOutages } from './adapters/bus/redis-outages.ts'
import type { PipelineDeps, FaultPoint } from './pipeline/deps.ts'
import { createWorker } from './pipeline/worker.ts'
import { createIndexer } from './indexer/indexer.ts'
import { followNewHeads, type NewHeads } from './chain/new-heads.ts'
import type { ImageGenerator } from './adapters/image/port.ts'
import { parseRoles } from './config/roles.ts'
import { createServing } from './operations/runtime/serve.ts'
import { createLimits } from './operations/runtime/limits.ts'
import type { Redis } from 'ioredis'

/** How long a burner's profile (name, profile, reputation) is kept without an event renewing it. */
const PROFILE_TTL_MS = 30_000
/** How long the gallery and chadboard read models go without looking at the store when no event says it changed. */
const READ_MODEL_TTL_MS = 5_000
/** The indexer's poll while a new-head subscription is live. */
const HEADS_LIVE_POLL_MS = 10_000

export type App = {
  ctx: Context
  http: ReturnType<typeof createHttpServer>
  /** Starts listening; resolves to the base URL. */
  listen(): Promise<string>
  close(): Promise<void>
}

export type CreateAppOptions = {
  log?: Logger
  operations?: AnyOperation[]
  /** Replaces the configured image generator (tests of failure handling). */
  images?: ImageGenerator
  /** Replaces the configured IPFS pinner (tests against a local server speaking a provider's API). */
  ipfs?: IpfsPinner
  /** The database, already being opened (main.ts opens it while the service's modules load). */
  db?: Promise<Db>
  /** The deployment CONTRACTS_FILE names, already read (main.ts reads it before loading the service's modules). */
  deployment?: Deployment
  /** The clock operations read the current time from (default Date.now). */
  clock?: () => number
}

function imageConfig(config: Config): Parameters<typeof createImageGenerator>[0] {
  switch (config.IMAGE_PROVIDER) {
    case 'replicate':
      if (!config.REPLICATE_API_TOKEN) throw new ConfigError('REPLICATE_API_TOKEN is required when IMAGE_PROVIDER=replicate.')
      return { kind: 'replicate', apiToken: config.REPLICATE_API_TOKEN.reveal() }
    case 'openai':
      if (!config.OPENAI_API_KEY) throw new ConfigError('OPENAI_API_KEY is required when IMAGE_PROVIDER=openai.')
      return { kind: 'openai', apiKey: config.OPENAI_API_KEY.reveal() }
    default:
      return { kind: 'local', threads: config.STYLIZER_THREADS }
  }
}

/** IPFS links point at IPFS_GATEWAY_URL, or at this service's own gateway once its URL is known. */
function createIpfs(config: Config, baseUrl: () => string): IpfsPinner {
  let pinner: IpfsPinner
  switch (config.IPFS_PROVIDER) {
    case 'pinata':
      if (!config.PINATA_JWT) throw new ConfigError('PINATA_JWT is required when IPFS_PROVIDER=pinata.')
      pinner = createIpfsPinner({ kind: 'pinata', jwt: config.PINATA_JWT.reveal(), gatewayBaseUrl: config.IPFS_GATEWAY_URL })
      break
    case 'kubo':
      if (!config.KUBO_RPC_URL) throw new ConfigError('KUBO_RPC_URL is required when IPFS_PROVIDER=kubo.')
      pinner = createIpfsPinner({ kind: 'kubo', rpcUrl: config.KUBO_RPC_URL, gatewayBaseUrl: config.IPFS_GATEWAY_URL ?? 'https://ipfs.io' })
      break
    default:
      pinner = createIpfsPinner({ kind: 'local', dir: path.join(config.DATA_DIR, 'ipfs'), publicBaseUrl: config.IPFS_GATEWAY_URL ?? config.publicBaseUrl })
  }
  if (config.IPFS_GATEWAY_URL || config.IPFS_PROVIDER !== 'local') return pinner
  return { ...pinner, add: pinner.add.bind(pinner), get: pinner.get?.bind(pinner), gatewayUrl: (cid: string) => `${baseUrl()}/ipfs/${cid}` }
}

/**
 * The composition root: builds every adapter from configuration, once. Which implementation
 * serves each port (embedded or production) is decided here and nowhere else.
 */
export async function createApp(config: Config, options: CreateAppOptions = {}): Promise<App> {
  const log = options.log ?? createLogger(config.LOG_LEVEL, { secretUrls: secretUrlsOf(config) })
  const rpcUrl = config.RPC_URL ?? `http://127.0.0.1:${config.DEVNET_RPC_PORT}`
  const deployment: Deployment =
    options.deployment ?? (await readConfiguredDeployment(config)) ?? withOverridesNamed(await readDevnetDeployment(rpcUrl), config.CONTRACT_ADDRESSES)

  const db = await (options.db ?? openDb(serviceDbConfig(config))).catch((cause) => {
    throw config.DATABASE_URL ? new StartupError('DATABASE_URL', `cannot open the database at ${redactUrl(config.DATABASE_URL)}: ${(cause as Error).message}`, { cause }) : cause
  })
  if (deployment.devnet) await followDevnetBoot(db, deployment.devnet.bootId, log)

  const chain = createChain({
    rpcUrl,
    // Never announce RPC_URL itself: it may carry a provider key.
    publicRpcUrl: config.PUBLIC_RPC_URL ?? (deployment.devnet ? rpcUrl : PUBLIC_MAINNET_RPC),
    explorerUrl: config.EXPLORER_URL,
    contracts: deployment.contracts,
    fundWallet: deployment.fundWallet,
    facilitator: deployment.facilitator,
    agentId: config.AGENT_ID !== undefined ? BigInt(config.AGENT_ID) : deployment.agentId ? BigInt(deployment.agentId) : undefined,
    retry: { attemptTimeoutMs: config.RPC_TIMEOUT_MS, retries: config.RPC_RETRIES, baseDelayMs: config.RPC_RETRY_BASE_MS, maxDelayMs: config.RPC_RETRY_MAX_MS },
  })
  // The devnet serves its websocket on its HTTP port; a real chain's is configured (or none).
  const wsUrl = config.RPC_WS_URL === 'none' ? undefined : (config.RPC_WS_URL ?? (deployment.devnet ? rpcUrl.replace(/^http/, 'ws') : undefined))
  let heads: NewHeads | undefined
  let closing = false

  let baseUrl = config.publicBaseUrl
  const keys = resolveHotKeys(config, Boolean(deployment.devnet))
  const minter = createTxSender({ db, chain, account: keys.minter, log, stuckAfterMs: config.SENDER_STUCK_MS, pollMs: config.SENDER_POLL_MS })
  const facilitatorSender = createTxSender({ db, chain, account: keys.facilitator, log, stuckAfterMs: config.SENDER_STUCK_MS, pollMs: config.SENDER_POLL_MS })
  const relayer = createTxSender({ db, chain, account: keys.relayer, log, stuckAfterMs: config.SENDER_STUCK_MS, pollMs: config.SENDER_POLL_MS })
  // A key without ETH can send nothing: said once at start (a mistyped key, an empty wallet),
  // not only through each refused send. Not awaited: start-up does not wait on the chain for it.
  void warnUnfundedKeys(chain, { MINTER_PRIVATE_KEY: keys.minter.address, RELAYER_PRIVATE_KEY: keys.relayer.address, ...(config.FACILITATOR_URL ? {} : { FACILITATOR_PRIVATE_KEY: keys.facilitator.address }) }, log)
  const facilitator: Facilitator = config.FACILITATOR_URL
    ? createHttpFacilitator({
        url: config.FACILITATOR_URL,
        api: config.FACILITATOR_API,
        pathPrefix: config.FACILITATOR_PATH_PREFIX,
        apiKey: config.FACILITATOR_API_KEY,
        timeoutMs: config.FACILITATOR_TIMEOUT_MS,
        verifyLocally: createChainVerifier(chain),
      })
    : createBuiltinFacilitator({ chain, sender: facilitatorSender })
  const images = options.images ?? createImageGenerator(imageConfig(config))
  const ipfs = options.ipfs ?? createIpfs(config, () => baseUrl)
  // ioredis (~100 ms of module loading) is loaded only by a deployment that uses Redis.
  const warn = (fields: Record<string, unknown>, message: string) => log.warn(fields, message)
  const bus = config.REDIS_URL
    ? await (await import('./adapters/bus/redis.ts')).createRedisBus(config.REDIS_URL, config.REDIS_PREFIX, warn).catch((cause) => {
        throw new StartupError('REDIS_URL', `cannot connect to ${redactUrl(config.REDIS_URL!)}: ${(cause as Error).message}`, { cause })
      })
    : createMemoryBus()
  const fresh = createFreshness(bus, log)
  // Not the response cache (CACHE_TTL_SECONDS does not apply): the gallery's and chadboard's
  // read models. Their time to live bounds only writes nobody announces.
  const portraits = createPortraitProjection(db, fresh, { boardSize: BOARD_SIZE, ttlMs: READ_MODEL_TTL_MS })
  const deps: PipelineDeps = {
    db,
    chain,
    facilitator,
    images,
    ipfs,
    minter,
    bus,
    fresh,
    portraits,
    log,
    baseUrl: () => baseUrl,
    retry: { baseMs: config.RETRY_BASE_MS, maxMs: config.RETRY_MAX_MS },
    leaseMs: config.LEASE_MS,
    early: new Map(),
    checked: new Map(),
    fault: (point: FaultPoint) => {
      if (config.FAULT_CRASH_AT === point) {
        log.fatal({ point }, 'fault injection: killing the process')
        process.kill(process.pid, 'SIGKILL')
      }
    },
  }
  const leaseMs = config.LEASE_MS
  const worker = createWorker(deps, { pollMs: config.WORKER_POLL_MS, leaseMs })
  const indexer = createIndexer({
    db,
    chain,
    bus,
    fresh,
    log,
    // On the devnet, the block after deployment and seed: the seed's NFT mints are not portraits.
    startBlock: BigInt(config.START_BLOCK ?? deployment.devnet?.deployBlock ?? 0),
    confirmations: config.CONFIRMATIONS,
    pollMs: config.INDEXER_POLL_MS,
    // While new heads wake it, the poll only covers a subscription that went quiet without closing.
    quietPollMs: () => (heads?.live() ? Math.max(config.INDEXER_POLL_MS, HEADS_LIVE_POLL_MS) : undefined),
    pageSize: config.INDEXER_PAGE_SIZE,
  })
  // Rate-limit counters shared by every instance; a Redis outage fails open (operations/runtime/limits.ts).
  const limitsRedis: Redis | undefined = config.REDIS_URL
    ? new (await import('ioredis')).Redis(config.REDIS_URL, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: true })
    : undefined
  const ctx = {
    config,
    log,
    chain,
    db,
    cache: createResponseCache(),
    fresh,
    profiles: createProfileCache(chain, fresh, PROFILE_TTL_MS),
    readModels: { portraits },
    operations: options.operations ?? registry,
    bus,
    pipeline: { deps, facilitator, worker, owner: worker.owner, leaseMs },
    indexer,
    economy: { relayer },
    // The minter's key: the one whose mint transactions deliver what the receipts state.
    receipts: createReceiptIssuer(keys.minter),
    baseUrl: () => baseUrl,
    clock: options.clock ?? Date.now,
    chat: chatAgent,
  } as Omit<Context, 'serving'> as Context
  reportMissingContracts(deployment, ctx.operations, log)
  // Serving (limits, cache, freshness) needs the context it serves from: one runtime for HTTP, MCP and chat.
  ctx.serving = createServing(ctx, createLimits(config, { redis: limitsRedis }))
  const roles = parseRoles(config.ROLE)
  if (limitsRedis) {
    reportOutages(limitsRedis, 'rate limits (not enforced until it returns)', warn)
    await limitsRedis.connect()
  }
  // The web page for people (/, /early) reads the same public API; it is no operation.
  // A process without the api role mounts no operation: a load balancer that reaches it by
  // mistake gets 404s, while what the server mounts outside the registry stays reachable.
  const http = createHttpServer(ctx, roles.api ? ctx.operations : [], { serving: ctx.serving, redis: limitsRedis, mounts: roles.api ? [mountWeb({ log })] : [] })

  return {
    ctx,
    http,
    async listen() {
      await http.listen({ host: config.HOST, port: config.PORT })
      const address = http.server.address()
      if (!config.PUBLIC_BASE_URL && address && typeof address === 'object') {
        baseUrl = `http://${config.HOST}:${address.port}`
      }
      // Stored transactions without a receipt are re-broadcast before new work starts.
      await Promise.all([minter.resume(), facilitatorSender.resume(), relayer.resume()]).catch((error) =>
        log.warn({ err: error }, 'could not re-broadcast stored transactions yet; the pipeline will retry'),
      )
      // Each sender then owns its transactions until they are final (receipt, replacement).
      for (const sender of [minter, facilitatorSender, relayer]) sender.start()
      if (roles.worker) worker.start()
      if (roles.indexer) {
        indexer.start()
        // Each new head wakes the indexer (the poll stays, for when the subscription is down).
        // Not awaited: start-up does not wait for the websocket.
        if (wsUrl) {
          void followNewHeads({ url: wsUrl, keepaliveMs: config.RPC_WS_KEEPALIVE_MS, onHead: () => indexer.poke(), log })
            .then((followed) => {
              if (closing) followed.close()
              else heads = followed
            })
            .catch((error) => log.warn({ err: error }, 'could not follow new heads; polling for new blocks'))
        }
      }
      // Answers say the block they are exact as of: start from what the database holds.
      await catchUp(db, fresh, 0n, 0).catch((error) => log.warn({ err: error }, 'could not read the indexed block yet'))
      return baseUrl
    },
    async close() {
      // First stop taking requests and finish those in flight (they may still need the worker,
      // the senders and the database), then stop the background work and release its leases.
      await http.close()
      await worker.stop()
      await Promise.all([minter.stop(), facilitatorSender.stop(), relayer.stop()])
      closing = true
      heads?.close()
      await indexer.stop()
      fresh.close()
      await bus.close()
      limitsRedis?.disconnect()
      await images.close?.()
      await db.close()
    },
  }
}

/** The embedded database describes one devnet boot; a fresh chain starts a fresh database. */
async function followDevnetBoot(db: Db, bootId: string, log: Logger) {
  const known = await getMeta(db, 'devnet_boot_id')
  if (known && known !== bootId) {
    log.warn({ previous: known, current: bootId }, 'the devnet started afresh: clearing the embedded database')
    await resetData(db)
  }
  if (known !== bootId) await setMeta(db, 'devnet_boot_id', bootId)
}

/**
 * One line at start-up naming the contracts this deployment lacks (the DeFi side on MegaETH
 * mainnet) and the operations that answer 503 NOT_DEPLOYED for it; nothing when none is missing.
 */
function reportMissingContracts(deployment: Deployment, operations: readonly AnyOperation[], log: Logger): void {
  const missing = missingContracts(deployment.contracts)
  if (missing.length === 0) return
  const refused = operations.filter((op) => absentFor(op, deployment.contracts).length > 0).map((op) => op.id)
  log.warn(
    { missing, operations: refused, variable: CONTRACT_VARIABLE },
    `not deployed on this network: ${missing.join(', ')}; ${refused.length} operations that need them answer 503 NOT_DEPLOYED until ${CONTRACT_VARIABLE} (or CONTRACTS_FILE) supplies them`,
  )
}

/**
 * Logs a warning for each hot key that holds no ETH for gas, its balances read in one multicall
 * (every start, every test app, pays one round trip; a failed read says nothing: the sends will).
 */
async function warnUnfundedKeys(chain: Chain, keys: Record<string, `0x${string}`>, log: Logger): Promise<void> {
  const entries = Object.entries(keys)
  const balances = await chain.client
    .multicall({ allowFailure: false, contracts: entries.map(([, address]) => ({ address: chain.contracts.multicall3, abi: multicall3Abi, functionName: 'getEthBalance', args: [address] }) as const) })
    .catch(() => undefined)
  entries.forEach(([variable, address], i) => {
    if (balances?.[i] === 0n) log.warn({ variable, address }, `the key of ${variable} (${address}) holds no ETH: its transactions cannot be sent; fund it or check the key`)
  })
}
