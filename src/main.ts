import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { loadConfig, ConfigError } from './config/load.ts'
import { createApp } from './app.ts'

/** Waits until the devnet answers devnet_info, or gives up. */
async function waitForDevnet(rpcUrl: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    try {
      const response = await fetch(rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'devnet_info', params: [] }),
        signal: AbortSignal.timeout(1_000),
      })
      const body = (await response.json()) as { result?: unknown }
      if (body.result) return true
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  return false
}

/**
 * Embedded mode runs the devnet in a process of its own, so the service can be killed and
 * restarted while the chain keeps its state; a running devnet is reused.
 */
async function ensureDevnet(port: number): Promise<ChildProcess | undefined> {
  const rpcUrl = `http://127.0.0.1:${port}`
  if (await waitForDevnet(rpcUrl, 300)) return undefined
  const entry = fileURLToPath(new URL('./devnet/main.ts', import.meta.url))
  const child = spawn(process.execPath, ['--import', 'tsx', entry], { stdio: 'inherit', env: process.env })
  if (!(await waitForDevnet(rpcUrl, 120_000))) {
    child.kill()
    throw new Error(`The devnet did not come up on ${rpcUrl}.`)
  }
  return child
}

async function main() {
  const started = Date.now()
  let config
  try {
    config = loadConfig()
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message)
      process.exit(78)
    }
    throw error
  }
  const devnet = config.RPC_URL ? undefined : await ensureDevnet(config.DEVNET_RPC_PORT)
  const app = await createApp(config)
  const url = await app.listen()
  app.ctx.log.info(
    {
      url,
      rpc: app.ctx.chain.info.rpc,
      openapi: `${url}/.well-known/openapi.json`,
      mcp: `${url}/api/mcp`,
      readyMs: Date.now() - started,
    },
    `service ready at ${url} (chain ${app.ctx.chain.info.chainId} at ${app.ctx.chain.info.rpc})`,
  )
  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    app.ctx.log.info({ signal }, 'stopping')
    await app.close().catch((error) => app.ctx.log.error({ err: error }, 'error while stopping'))
    devnet?.kill('SIGTERM')
    process.exit(0)
  }
  process.on('SIGINT', () => void stop('SIGINT'))
  process.on('SIGTERM', () => void stop('SIGTERM'))
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
