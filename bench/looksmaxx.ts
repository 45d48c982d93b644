/**
 * Time per looksmaxx submission with the local adapters (verify burns, claim, settle,
 * stylize, pin, mint): p50 and p99 over sequential submissions, and throughput with 20 in
 * flight. The devnet mines instantly, so chain confirmation waits are not part of it.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { erc20Abi, createWalletClient, http } from 'viem'
import { startDevnet } from '../src/devnet/start-devnet.ts'
import { loadConfig } from '../src/config/load.ts'
import { createApp } from '../src/app.ts'
import { createViemChain } from '../src/chain/clients.ts'
import { createAgent, portraitBase64 } from '../test/support/agent.ts'
import { getJson, postJson } from '../test/support/app.ts'
import { runDate, yesNo, type BenchResult } from './summary.ts'

/** p50 of a paid submission, sequential (issue 5). */
const TARGET_P50_MS = 300
import { table } from './support.ts'
import { testAccount } from '../test/support/accounts.ts'

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!

export async function benchLooksmaxx(sequential = 50, concurrent = 20): Promise<BenchResult> {
  const devnet = await startDevnet({ host: '127.0.0.1', port: 0 })
  const dataDir = await mkdtemp(path.join(tmpdir(), 'b2c-bench-'))
  const app = await createApp(loadConfig({ PORT: '0', LOG_LEVEL: 'silent', RPC_URL: devnet.url, DATA_DIR: dataDir }))
  const url = await app.listen()
  try {
    const image = await portraitBase64()
    const requirements = (await getJson(`${url}/api/x402/looksmaxx`)).body.accepts[0]
    const chain = createViemChain(devnet.url, 'https://megaexplorer.xyz', devnet.info.contracts.multicall3)
    const deployer = createWalletClient({ chain, transport: http(devnet.url), account: testAccount(0).account })
    const agents = await Promise.all([5, 6, 7, 8, 9].map((i) => createAgent(url, devnet.url, i)))
    const total = sequential + concurrent
    // Tokens for every burn, straight from the deployer's supply.
    for (const agent of agents) {
      const hash = await deployer.writeContract({
        address: devnet.info.contracts.token, abi: erc20Abi, functionName: 'transfer', args: [agent.address, BigInt(Math.ceil(total / agents.length)) * 225_000n * 10n ** 18n],
      })
      await agent.publicClient.waitForTransactionReceipt({ hash })
    }
    const prepare = async (i: number) => {
      const agent = agents[i % agents.length]!
      const burns = await agent.burn()
      return { ...burns, burnerAddress: agent.address, image, paymentPayload: await agent.signPayment(requirements) }
    }
    const bodies = []
    for (let i = 0; i < total; i++) bodies.push(await prepare(i))

    await postJson(`${url}/api/x402/looksmaxx`, bodies.shift()) // warm-up: loads the face model
    const times: number[] = []
    for (const body of bodies.splice(0, sequential - 1)) {
      const started = performance.now()
      const response = await postJson(`${url}/api/x402/looksmaxx`, body)
      if (response.status !== 200) throw new Error(`submission failed: ${JSON.stringify(response.body)}`)
      times.push(performance.now() - started)
    }
    times.sort((a, b) => a - b)
    // Where the time goes: gaps between the recorded step timestamps, median over the run.
    const { rows } = await app.ctx.db.query<{ submission_id: string; step: string; at: Date }>('SELECT submission_id, step, at FROM submission_steps ORDER BY id')
    const bySubmission = new Map<string, Array<{ step: string; at: number }>>()
    for (const row of rows) bySubmission.set(row.submission_id, [...(bySubmission.get(row.submission_id) ?? []), { step: row.step, at: new Date(row.at).getTime() }])
    const gaps = new Map<string, number[]>()
    for (const steps of bySubmission.values()) {
      for (let i = 1; i < steps.length; i++) {
        const gap = `${steps[i - 1]!.step} → ${steps[i]!.step}`
        gaps.set(gap, [...(gaps.get(gap) ?? []), steps[i]!.at - steps[i - 1]!.at])
      }
    }
    const stepRows = [...gaps].map(([step, values]) => ({ step, 'median ms': percentile(values.sort((a, b) => a - b), 50) }))
    const started = performance.now()
    const results = await Promise.all(bodies.map((body) => postJson(`${url}/api/x402/looksmaxx`, body)))
    const elapsed = (performance.now() - started) / 1000
    const ok = results.filter((r) => r.status === 200).length
    const p50 = Math.round(percentile(times, 50))
    const headline = {
      name: 'looksmaxx',
      figure: `p50 ${p50} ms per paid submission, sequential; ${(ok / elapsed).toFixed(1)}/s with ${results.length} in flight (${ok} minted)`,
      baseline: '',
      ratio: '',
      target: `p50 < ${TARGET_P50_MS} ms`,
      met: yesNo(p50 < TARGET_P50_MS),
      date: runDate(),
    }
    const section = table(stepRows) + '\n\n' + table([
      { measure: `sequential, ${times.length} submissions`, 'p50 ms': Math.round(percentile(times, 50)), 'p99 ms': Math.round(percentile(times, 99)), 'per second': (1000 / percentile(times, 50)).toFixed(1) },
      { measure: `${results.length} in flight`, 'p50 ms': '', 'p99 ms': '', 'per second': `${(ok / elapsed).toFixed(1)} (${ok}/${results.length} minted)` },
    ])
    return { section, headlines: [headline] }
  } finally {
    await app.close()
    await devnet.close()
    await rm(dataDir, { recursive: true, force: true })
  }
}
