import { loadConfig, ConfigError, StartupError, type Config } from './config/load.ts'
import { createLogger } from './config/logger.ts'
import { secretUrlsOf } from './config/redact-url.ts'
import { parseRoles } from './config/roles.ts'
import { onSignalWhileStarting, probeRpc, startDevnetProcess, stopDevnet } from './devnet/supervise.ts'
import { readConfiguredDeployment } from './chain/deployment.ts'

async function main() {
  process.on('SIGINT', onSignalWhileStarting)
  process.on('SIGTERM', onSignalWhileStarting)
  let config: Config
  try {
    config = loadConfig()
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message)
      process.exit(78)
    }
    throw error
  }
  if (config.RPC_URL && !config.CONTRACTS_FILE) {
    // Without a contract registry the addresses come from the devnet's devnet_info method.
    const probe = await probeRpc(config.RPC_URL, 5_000)
    if (probe.kind === 'other') {
      console.error(
        'Invalid configuration:\n  CONTRACTS_FILE: required when RPC_URL is not the embedded devnet ' +
          '(the chain at RPC_URL has no devnet_info method to read the contract addresses from).',
      )
      process.exit(78)
    }
    if (probe.kind === 'down') {
      // Never print RPC_URL itself: it may carry a provider key.
      console.error('The chain at RPC_URL did not answer a JSON-RPC request; start it or fix RPC_URL.')
      process.exit(1)
    }
  }
  // A CONTRACTS_FILE that cannot be used is refused before anything starts or loads (0.25 s
  // instead of 0.55 s for a typo in a path); createApp is handed what was read.
  const deployment = await readConfiguredDeployment(config)
  const log = createLogger(config.LOG_LEVEL, { pretty: process.stdout.isTTY, secretUrls: secretUrlsOf(config) })
  const devnet = config.RPC_URL ? undefined : await startDevnetProcess(config, log)
  // The database opens first (the embedded one compiles PostgreSQL's WebAssembly, partly on
  // another thread, and reads its files), while the service's modules load and the devnet
  // boots in its own process.
  log.info('opening the database; loading the service')
  const db = import('./store/db.ts').then(({ openDb, serviceDbConfig }) => openDb(serviceDbConfig(config)))
  db.catch(() => {}) // awaited by createApp; a failure before that is not unhandled
  const { createApp } = await import('./app.ts')
  await devnet?.ready
  let app
  try {
    log.info('reading the contracts; then the indexer, workers and HTTP server start')
    app = await createApp(config, { log, db, deployment })
  } catch (error) {
    // Rules that span several variables (or the chain behind RPC_URL) are checked here.
    if (error instanceof ConfigError) {
      console.error(`Invalid configuration:\n  ${error.message}`)
      process.exit(78)
    }
    throw error
  }
  const url = await app.listen()
  const serves = parseRoles(config.ROLE).api
  app.ctx.log.info(
    {
      url,
      rpc: app.ctx.chain.info.rpc,
      openapi: `${url}/.well-known/openapi.json`,
      mcp: `${url}/api/mcp`,
      // From the start of this process (module loading included), not from main().
      readyMs: Math.round(process.uptime() * 1000),
      role: config.ROLE,
      ...(devnet ? { devnet: { started: devnet.started, log: devnet.log } } : {}),
    },
    // Only a process that serves the API points at it (a worker or an indexer answers 404 there).
    `${serves ? 'service' : config.ROLE} ready at ${url} (chain ${app.ctx.chain.info.chainId} at ${app.ctx.chain.info.rpc})` +
      (serves ? `; OpenAPI ${url}/.well-known/openapi.json, MCP ${url}/api/mcp. Try: curl ${url}/api/price` : '; health at /healthz and /readyz, metrics at /metrics'),
  )
  let stopping = false
  // SIGTERM (a supervisor restarting the service) stops the service only: the devnet keeps its
  // chain state for the next start. SIGINT (Ctrl-C: the user quits) stops the devnet too.
  const stop = async (signal: 'SIGINT' | 'SIGTERM') => {
    if (stopping) return
    stopping = true
    app.ctx.log.info({ signal }, 'stopping')
    await app.close().catch((error) => app.ctx.log.error({ err: error }, 'error while stopping'))
    if (devnet && signal === 'SIGINT') {
      const stopped = await stopDevnet(config).catch(() => false)
      if (stopped) app.ctx.log.info({ rpc: devnet.rpcUrl }, 'devnet stopped')
    }
    process.exit(0)
  }
  process.off('SIGINT', onSignalWhileStarting)
  process.off('SIGTERM', onSignalWhileStarting)
  process.on('SIGINT', () => void stop('SIGINT'))
  process.on('SIGTERM', () => void stop('SIGTERM'))
}

main().catch((error) => {
  // What a variable points at could not be used: say which and why, without a stack trace.
  if (error instanceof StartupError) console.error(`Could not start: ${error.message}`)
  else console.error(error)
  process.exit(1)
})
