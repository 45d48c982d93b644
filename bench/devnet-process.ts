import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { readDevnetDeployment, type Deployment } from '../src/chain/deployment.ts'
import { freePort } from '../test/support/free-port.ts'
import { procStat } from './proc-stat.ts'

export type DevnetProcess = {
  url: string
  contracts: Deployment['contracts']
  fundWallet: Deployment['fundWallet']
  /** CPU time the devnet process has used so far, in ms (Linux; undefined elsewhere). */
  cpuMs(): number | undefined
  close(): Promise<void>
}

const entry = fileURLToPath(new URL('../src/devnet/main.ts', import.meta.url))

/**
 * The devnet in a process of its own, as `npm start` runs it (and as a real chain is: another
 * machine), so a benchmark of the service does not count the chain's CPU as the service's.
 */
export async function startDevnetProcess(): Promise<DevnetProcess> {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, DEVNET_RPC_PORT: String(port), HOST: '127.0.0.1' },
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const deadline = Date.now() + 120_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the devnet exited with ${child.exitCode} before answering`)
    // Not answering yet (or not yet deployed): look again.
    const deployment = await readDevnetDeployment(url).catch(() => undefined)
    if (deployment) {
      return {
        url,
        contracts: deployment.contracts,
        fundWallet: deployment.fundWallet,
        cpuMs: () => procStat(`/proc/${child.pid}/stat`)?.cpuMs,
        async close() {
          if (child.exitCode === null) child.kill('SIGTERM')
          await exited
        },
      }
    }
    if (Date.now() > deadline) {
      child.kill('SIGTERM')
      throw new Error('the devnet did not answer within 120 s')
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}
