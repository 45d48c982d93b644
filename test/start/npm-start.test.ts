import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { createInterface } from 'node:readline'
import { createPublicClient, createWalletClient, erc20Abi, http } from 'viem'
import { freePort } from '../support/service-process.ts'
import { createViemChain } from '../../src/chain/clients.ts'
import { testAccount } from '../support/accounts.ts'
import { onlyInLeg } from '../support/env.ts'

// `npm start` with no configuration is the embedded mode whatever TEST_BACKEND says, so both
// legs of .ci/run would run the same thing: it runs in the embedded leg only.
const skip = onlyInLeg('embedded')

const mainEntry = fileURLToPath(new URL('../../src/main.ts', import.meta.url))

type ReadyLine = { url: string; rpc: string; openapi: string; mcp: string; readyMs: number; msg: string }
type Service = { child: ChildProcess; ready: ReadyLine; wallMs: number; exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>; output: string[] }

/** `npm start` as a user runs it: `node --import tsx src/main.ts`, no configuration but ports and DATA_DIR. */
async function npmStart(env: Record<string, string>): Promise<Service> {
  const base = { ...process.env }
  for (const key of Object.keys(base)) {
    // Nothing of the test runner's own configuration may leak in: this is the no-configuration start.
    if (/^(RPC_URL|PUBLIC_RPC_URL|CONTRACTS_FILE|DATABASE_URL|REDIS_URL|PUBLIC_BASE_URL|FACILITATOR_URL|IMAGE_PROVIDER|IPFS_PROVIDER)$/.test(key)) delete base[key]
  }
  const spawnedAt = Date.now()
  const child = spawn(process.execPath, ['--import', 'tsx', mainEntry], {
    env: { ...base, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const output: string[] = []
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  )
  createInterface({ input: child.stderr! }).on('line', (line) => output.push(line))
  const ready = await new Promise<ReadyLine>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      output.push(line)
      try {
        const entry = JSON.parse(line) as Partial<ReadyLine>
        if (typeof entry.readyMs === 'number') resolve(entry as ReadyLine)
      } catch {
        // not a log line
      }
    })
    void exited.then(({ code, signal }) => reject(new Error(`the service exited (${code ?? signal}) before it was ready:\n${output.join('\n')}`)))
  })
  return { child, ready, wallMs: Date.now() - spawnedAt, exited, output }
}

/**
 * Whether the devnet answers eth_chainId with 4326 ('answers') or its port refuses the
 * connection ('refused'). Anything else (a timeout, a JSON-RPC error, another chain) throws:
 * only a closed port counts as a stopped devnet.
 */
async function rpcState(rpcUrl: string): Promise<'answers' | 'refused'> {
  let response: Response
  try {
    response = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      signal: AbortSignal.timeout(10_000),
    })
  } catch (error) {
    if ((error as { cause?: { code?: string } }).cause?.code === 'ECONNREFUSED') return 'refused'
    throw error
  }
  const body = (await response.json()) as { result?: string; error?: unknown }
  if (body.result !== '0x10e6') throw new Error(`the RPC answered ${JSON.stringify(body)}, not chain 4326`)
  return 'answers'
}

function devnetPid(dataDir: string): number | undefined {
  try {
    return (JSON.parse(readFileSync(path.join(dataDir, 'devnet.json'), 'utf8')) as { pid: number }).pid
  } catch {
    return undefined
  }
}

async function signalAndWait(service: Service, signal: NodeJS.Signals) {
  if (service.child.exitCode === null && service.child.signalCode === null) service.child.kill(signal)
  return service.exited
}

test('npm start with no configuration: devnet beside the service, quote buys tokens, SIGTERM keeps the chain, SIGINT stops both', { skip }, async (t) => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'b2c-npm-start-'))
  const port = await freePort()
  const devnetPort = await freePort()
  const env = { HOST: '127.0.0.1', PORT: String(port), DEVNET_RPC_PORT: String(devnetPort), DATA_DIR: dataDir, LOG_LEVEL: 'info' }
  const services: Service[] = []
  t.after(async () => {
    for (const service of services) await signalAndWait(service, 'SIGKILL')
    // The devnet is detached (its own process group): stop it by the PID npm start recorded.
    const pid = devnetPid(dataDir)
    if (pid) {
      try {
        process.kill(pid, 'SIGKILL')
      } catch {
        // already gone
      }
    }
    rmSync(dataDir, { recursive: true, force: true })
  })

  // 1. The first start boots the devnet and the service, and logs every URL.
  const first = await npmStart(env)
  services.push(first)
  const url = `http://127.0.0.1:${port}`
  const rpc = `http://127.0.0.1:${devnetPort}`
  assert.equal(first.ready.url, url)
  assert.equal(first.ready.rpc, rpc)
  assert.equal(first.ready.openapi, `${url}/.well-known/openapi.json`)
  assert.equal(first.ready.mcp, `${url}/api/mcp`)
  assert.match(first.ready.msg, new RegExp(url.replace(/\./g, '\\.')))
  assert.ok(first.ready.msg.includes(rpc), 'the ready message names the RPC URL')
  t.diagnostic(`npm start readiness (fresh devnet + service, readyMs as logged): ${first.ready.readyMs} ms; process spawn to ready line: ${first.wallMs} ms`)
  assert.ok(existsSync(path.join(dataDir, 'devnet.log')), 'the devnet writes its output to DATA_DIR/devnet.log')
  assert.ok((await fetch(first.ready.openapi)).ok)

  // 2. A script from outside buys tokens with the quote's transaction, through the announced chain.rpc.
  const account = testAccount(7).account
  const quoteResponse = await fetch(`${url}/api/x402/quote?ethAmount=0.5&recipient=${account.address}`)
  assert.equal(quoteResponse.status, 200)
  const quote = (await quoteResponse.json()) as { swap: { router: `0x${string}`; data: `0x${string}`; value: string } }
  const bridge = (await (await fetch(`${url}/api/bridge`)).json()) as { chain: { rpc: string }; tokens: { megachad: { address: `0x${string}` } } }
  assert.equal(bridge.chain.rpc, rpc)
  const chain = createViemChain(bridge.chain.rpc, 'https://megaexplorer.xyz', '0xcA11bde05977b3631167028862bE2a173976CA11')
  const publicClient = createPublicClient({ chain, transport: http() })
  const wallet = createWalletClient({ chain, transport: http(), account })
  const token = bridge.tokens.megachad.address
  const balanceOf = () => publicClient.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [account.address] })
  const before = await balanceOf()
  const hash = await wallet.sendTransaction({ to: quote.swap.router, data: quote.swap.data, value: BigInt(quote.swap.value) })
  assert.equal((await publicClient.waitForTransactionReceipt({ hash })).status, 'success')
  const bought = await balanceOf()
  assert.ok(bought > before, `the balance rose (${before} -> ${bought})`)

  // 3. SIGTERM stops the service only: the devnet keeps answering, with its state.
  const termExit = await signalAndWait(first, 'SIGTERM')
  assert.equal(termExit.code, 0)
  assert.equal(await rpcState(rpc), 'answers', 'the devnet outlives a SIGTERM of the service')
  assert.equal(await balanceOf(), bought)

  // 4. A second start reuses the running devnet: same chain, the tokens bought are still there.
  const second = await npmStart(env)
  services.push(second)
  assert.equal(second.ready.rpc, rpc)
  t.diagnostic(`npm start readiness (reusing the running devnet): ${second.ready.readyMs} ms; process spawn to ready line: ${second.wallMs} ms`)
  const walletView = (await (await fetch(`${url}/api/wallet?address=${account.address}`)).json()) as { balances: { coinWei: string } }
  assert.equal(walletView.balances.coinWei, bought.toString(), 'the restarted service sees the tokens bought before the restart')
  assert.equal(await balanceOf(), bought)

  // 5. SIGINT (Ctrl-C) stops both.
  const intExit = await signalAndWait(second, 'SIGINT')
  assert.equal(intExit.code, 0)
  assert.equal(await rpcState(rpc), 'refused', 'the devnet port stops answering after SIGINT')
})
