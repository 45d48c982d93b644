/**
 * What simulating a plan costs a builder: the same builder call with the sender given (the plan
 * is simulated) and without it (it is not), one call of each in turn, on the devnet in a process
 * of its own; and eth_simulateV1 of the looksmaxx plan's three steps sent to the devnet directly
 * (the chain's part of it). Also the RPC requests per call, from the service's own counter.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { startDevnetProcess } from './devnet-process.ts'
import { loadConfig } from '../src/config/load.ts'
import { createApp } from '../src/app.ts'
import { testAccount } from '../test/support/accounts.ts'
import { defiRoles } from '../src/devnet/defi-accounts.ts'
import { table } from './support.ts'
import { runDate, yesNo, type BenchResult } from './summary.ts'

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 60)
const WARM_UP = 5
/** Added latency (p50) per simulated plan on the devnet that the builders may pay. */
const TARGET_ADDED_MS = 25

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const p90 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.9)]!

export async function benchSimulatedPlans(): Promise<BenchResult> {
  const devnet = await startDevnetProcess()
  const dataDir = await mkdtemp(path.join(process.env.BENCH_TMP ?? tmpdir(), 'b2c-bench-'))
  const app = await createApp(loadConfig({ PORT: '0', LOG_LEVEL: 'silent', RPC_URL: devnet.url, DATA_DIR: dataDir, RATE_LIMIT_EXPENSIVE_PER_MINUTE: '0', RATE_LIMIT_WALLET_EXPENSIVE_PER_MINUTE: '0' }))
  const url = await app.listen()
  await app.ctx.indexer.stop()
  try {
    /** CPU ms of this process (the service and the client) and of the devnet process. */
    const cpu = () => {
      const { user, system } = process.cpuUsage()
      return { service: (user + system) / 1000, devnet: devnet.cpuMs() ?? NaN }
    }
    const spent = { on: { service: 0, devnet: 0 }, off: { service: 0, devnet: 0 } }
    const call = async (urlPath: string, kind?: 'on' | 'off') => {
      const before = cpu()
      const start = performance.now()
      const response = await fetch(`${url}${urlPath}`)
      const body = await response.json()
      const ms = performance.now() - start
      if (response.status !== 200) throw new Error(`${urlPath}: ${response.status} ${JSON.stringify(body)}`)
      if (kind) {
        const after = cpu()
        spent[kind].service += after.service - before.service
        spent[kind].devnet += after.devnet - before.devnet
      }
      return ms
    }
    /**
     * `ROUNDS` sequential GETs of each URL, alternating (the machine's drift falls on both), and
     * the RPC requests each kind made: p50 and p90, and the median of the paired differences.
     */
    const measure = async (withSim: string, without?: string) => {
      for (let i = 0; i < WARM_UP; i++) {
        await call(withSim)
        if (without) await call(without)
      }
      spent.on = { service: 0, devnet: 0 }
      spent.off = { service: 0, devnet: 0 }
      const on: number[] = []
      const off: number[] = []
      let rpcOn = 0
      let rpcOff = 0
      for (let i = 0; i < ROUNDS; i++) {
        let before = app.ctx.chain.rpcRequestCount()
        on.push(await call(withSim, 'on'))
        rpcOn += app.ctx.chain.rpcRequestCount() - before
        if (!without) continue
        before = app.ctx.chain.rpcRequestCount()
        off.push(await call(without, 'off'))
        rpcOff += app.ctx.chain.rpcRequestCount() - before
      }
      const per = (x: { service: number; devnet: number }) => ({ service: x.service / ROUNDS, devnet: x.devnet / ROUNDS })
      return {
        on: { p50: median(on), p90: p90(on), rpc: rpcOn / ROUNDS, cpu: per(spent.on) },
        off: without ? { p50: median(off), p90: p90(off), rpc: rpcOff / ROUNDS, cpu: per(spent.off) } : undefined,
        added: without ? median(on.map((t, i) => t - off[i]!)) : undefined,
      }
    }
    const trader = testAccount(defiRoles.burners[0]).account.address
    const agent = testAccount(5).account.address
    const cases = [
      { name: 'amm swap-tx (2 steps)', without: `/api/defi/amm/swap-tx?from=MC&amount=10&recipient=${trader}`, with: `/api/defi/amm/swap-tx?from=MC&amount=10&recipient=${trader}&address=${trader}` },
      { name: 'vote-tx (1 step)', without: '/api/defi/governance/vote-tx?proposalId=7&support=for', with: `/api/defi/governance/vote-tx?proposalId=7&support=for&voter=${trader}` },
      { name: 'staking tx, stake (2 steps)', with: `/api/defi/staking/tx?action=stake&venue=mogger&amount=10&address=${testAccount(defiRoles.proposer).account.address}` },
      { name: 'looksmaxx plan (3 steps)', with: `/api/agent/looksmaxx?wallet=${agent}` },
    ]
    const rows: Array<Record<string, string | number>> = []
    const added: number[] = []
    for (const c of cases) {
      const { on, off, added: delta } = await measure(c.with, c.without)
      if (delta !== undefined) added.push(delta)
      rows.push({
        builder: c.name,
        'p50 ms, not simulated': off ? off.p50.toFixed(1) : '-',
        'p50 ms, simulated': on.p50.toFixed(1),
        'p90 ms, simulated': on.p90.toFixed(1),
        'added ms (median of pairs)': delta !== undefined ? delta.toFixed(1) : '-',
        'RPC requests per call (not / simulated)': `${off ? off.rpc.toFixed(1) : '-'} / ${on.rpc.toFixed(1)}`,
        'CPU ms per call, service (not / simulated)': `${off ? off.cpu.service.toFixed(1) : '-'} / ${on.cpu.service.toFixed(1)}`,
        'CPU ms per call, devnet (not / simulated)': `${off ? off.cpu.devnet.toFixed(1) : '-'} / ${on.cpu.devnet.toFixed(1)}`,
      })
    }
    // The chain's part: the looksmaxx plan's eth_simulateV1 alone, straight to the devnet.
    const plan = (await (await fetch(`${url}/api/agent/looksmaxx?wallet=${agent}`)).json()) as { steps: Array<{ skip: boolean; transaction: { to: string; data: string; value: string } | null }> }
    const calls = plan.steps.filter((s) => !s.skip && s.transaction).map((s) => ({ from: agent, to: s.transaction!.to, data: s.transaction!.data, value: `0x${BigInt(s.transaction!.value).toString(16)}` }))
    const direct: number[] = []
    const devnetBefore = devnet.cpuMs() ?? NaN
    for (let i = 0; i < ROUNDS + WARM_UP; i++) {
      const start = performance.now()
      const response = await fetch(devnet.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_simulateV1', params: [{ blockStateCalls: [{ calls }], traceTransfers: true }, 'latest'] }) })
      await response.json()
      if (i >= WARM_UP) direct.push(performance.now() - start)
    }
    const directCpu = ((devnet.cpuMs() ?? NaN) - devnetBefore) / (ROUNDS + WARM_UP)
    const maxAdded = Math.max(...added)
    const section = [
      `${ROUNDS} calls of each URL, one with the sender and one without in turn, after ${WARM_UP} of warm-up; the devnet in a process of its own.`,
      '',
      table(rows),
      '',
      `The devnet's eth_simulateV1 of the looksmaxx plan's ${calls.length} steps, sent directly: p50 ${median(direct).toFixed(1)} ms, p90 ${p90(direct).toFixed(1)} ms, ${directCpu.toFixed(1)} ms of the devnet's CPU each (each step mined on a snapshot and reverted, behind the RPC gate).`,
    ].join('\n')
    return {
      section,
      headlines: [{
        name: 'simulated-plans',
        figure: `simulation adds ${added.map((a) => a.toFixed(1)).join(' / ')} ms (median of pairs; amm swap 2 steps / vote 1 step); devnet eth_simulateV1 of 3 steps p50 ${median(direct).toFixed(1)} ms`,
        baseline: 'the same builder call without the sender (not simulated)',
        ratio: '',
        target: `≤ ${TARGET_ADDED_MS} ms added per plan (devnet)`,
        met: yesNo(maxAdded <= TARGET_ADDED_MS),
        date: runDate(),
      }],
    }
  } finally {
    await app.close()
    await devnet.close()
    await rm(dataDir, { recursive: true, force: true })
  }
}
