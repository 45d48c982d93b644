/**
 * Time per looksmaxx submission with the local adapters (verify burns, claim, settle,
 * stylize, pin, mint): p50 and p99 over sequential submissions, and throughput with 20 in
 * flight, counted as NFTs the agents own on chain afterwards (not as HTTP 200s). The devnet
 * runs in a process of its own, as `npm start` runs it, and mines instantly, so chain
 * confirmation waits are not part of it. Baseline, in the same run: the stylizer alone on the
 * same portrait (the critical path), sequential. BENCH_CPU_PROF=<file> writes a CPU profile of the
 * event loop while the 20 are in flight.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { erc20Abi, createWalletClient, http } from 'viem'
import { startDevnetProcess } from './devnet-process.ts'
import { createThreadedStylizer } from '../src/adapters/image/threaded-stylizer.ts'
import { loadConfig } from '../src/config/load.ts'
import { createApp } from '../src/app.ts'
import { createViemChain } from '../src/chain/clients.ts'
import { createAgent, portraitBase64 } from '../test/support/agent.ts'
import { getJson, postJson } from '../test/support/fetch-json.ts'
import { runDate, yesNo, type BenchResult } from './summary.ts'

/** Issue 26: p50 of a paid submission, sequential, and NFTs minted per second with 20 in flight. */
const TARGET_P50_MS = 150
const TARGET_PER_SECOND = 12
import { startProfile, table } from './support.ts'
import { testAccount } from '../test/support/accounts.ts'

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!

export async function benchLooksmaxx(sequential = 50, concurrent = 20): Promise<BenchResult> {
  const devnet = await startDevnetProcess()
  const dataDir = await mkdtemp(path.join(tmpdir(), 'b2c-bench-'))
  // The service's stylizer, also timed alone for the baseline.
  const stylizer = createThreadedStylizer()
  const app = await createApp(loadConfig({ PORT: '0', LOG_LEVEL: 'silent', RPC_URL: devnet.url, DATA_DIR: dataDir }), { images: stylizer })
  const url = await app.listen()
  try {
    const image = await portraitBase64()
    const requirements = (await getJson(`${url}/api/x402/looksmaxx`)).body.accepts[0]
    const chain = createViemChain(devnet.url, 'https://megaexplorer.xyz', devnet.contracts.multicall3)
    const deployer = createWalletClient({ chain, transport: http(devnet.url), account: testAccount(0).account })
    const agents = await Promise.all([5, 6, 7, 8, 9].map((i) => createAgent(url, devnet.url, i)))
    const total = sequential + concurrent
    // Tokens for every burn, straight from the deployer's supply.
    for (const agent of agents) {
      const hash = await deployer.writeContract({
        address: devnet.contracts.token, abi: erc20Abi, functionName: 'transfer', args: [agent.address, BigInt(Math.ceil(total / agents.length)) * 225_000n * 10n ** 18n],
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

    /** NFTs the agents own on chain: what was minted, whatever the answers said. */
    const owned = async () => (await Promise.all(agents.map((agent) => agent.nftBalance()))).reduce((sum, n) => sum + n, 0n)
    const ownedAtStart = await owned()
    await postJson(`${url}/api/x402/looksmaxx`, bodies.shift()) // warm-up: loads the face model
    const times: number[] = []
    for (const body of bodies.splice(0, sequential - 1)) {
      const started = performance.now()
      const response = await postJson(`${url}/api/x402/looksmaxx`, body)
      if (response.status !== 200) throw new Error(`submission failed: ${JSON.stringify(response.body)}`)
      times.push(performance.now() - started)
    }
    times.sort((a, b) => a - b)
    const ownedAfterSequential = await owned()
    // The baseline: the same portrait through the stylizer alone, as many times, one at a time.
    const alone: number[] = []
    for (let i = 0; i < Math.min(times.length, 20); i++) {
      // A copy each time: the stylizer hands the bytes to its thread (the buffer is transferred).
      const portrait = Buffer.from(image, 'base64')
      const started = performance.now()
      await stylizer.generate({ image: portrait, mimeType: 'image/jpeg', seed: `0x${i.toString(16).padStart(64, '0')}` })
      alone.push(performance.now() - started)
    }
    alone.sort((a, b) => a - b)
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
    const profiling = process.env.BENCH_CPU_PROF ? await startProfile() : undefined
    const started = performance.now()
    const results = await Promise.all(bodies.map((body) => postJson(`${url}/api/x402/looksmaxx`, body)))
    const elapsed = (performance.now() - started) / 1000
    if (profiling) await profiling.stop(process.env.BENCH_CPU_PROF!)
    const answered = results.filter((r) => r.status === 200).length
    const minted = Number((await owned()) - ownedAfterSequential)
    const sequentialMinted = Number(ownedAfterSequential - ownedAtStart)
    const p50 = Math.round(percentile(times, 50))
    const aloneP50 = Math.round(percentile(alone, 50))
    const perSecond = minted / elapsed
    const headline = {
      name: 'looksmaxx',
      figure: `p50 ${p50} ms per paid submission, sequential (${sequentialMinted} NFTs minted on chain); ${perSecond.toFixed(1)} minted/s with ${results.length} in flight (${minted} NFTs owned on chain, ${answered} HTTP 200)`,
      baseline: `the stylizer alone on the same portrait, p50 ${aloneP50} ms`,
      ratio: (p50 / aloneP50).toFixed(2),
      target: `p50 < ${TARGET_P50_MS} ms; ≥ ${TARGET_PER_SECOND}/s with 20 in flight`,
      met: `p50 ${yesNo(p50 < TARGET_P50_MS)}, throughput ${yesNo(perSecond >= TARGET_PER_SECOND && minted === results.length)}`,
      date: runDate(),
    }
    const section = table(stepRows) + '\n\n' + table([
      { measure: `sequential, ${times.length} submissions (+1 warm-up; ${sequentialMinted} NFTs minted on chain)`, 'p50 ms': p50, 'p99 ms': Math.round(percentile(times, 99)), 'per second': (1000 / percentile(times, 50)).toFixed(1) },
      { measure: `${results.length} in flight`, 'p50 ms': '', 'p99 ms': '', 'per second': `${perSecond.toFixed(1)} (${minted} of ${results.length} NFTs owned on chain; ${answered} HTTP 200)` },
      { measure: `baseline: the stylizer alone, ${alone.length} generations of the same portrait`, 'p50 ms': aloneP50, 'p99 ms': Math.round(percentile(alone, 99)), 'per second': (1000 / aloneP50).toFixed(1) },
    ])
    return { section, headlines: [headline] }
  } finally {
    await app.close()
    await devnet.close()
    await rm(dataDir, { recursive: true, force: true })
  }
}
