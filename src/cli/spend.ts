/**
 * Spend caps: the most one command may spend (--max-eth, --max-usdm) and the most a wallet may
 * spend in a UTC day (burn-to-create limits), checked against the whole plan before its first
 * transaction. What is spent is the ETH value the transactions send (gas is not counted: on
 * MegaETH it is a small fraction of a cent) and the USDm of x402 payments; a day's spending is
 * kept in the CLI's state file, counted when a transaction or payment is sent, whether or not it
 * then succeeds.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { formatEther, formatUnits, getAddress, parseEther, parseUnits } from 'viem'
import { UsageError } from './errors.ts'

export type Spend = { eth: bigint; usdm: bigint }
export type CommandCaps = { maxEth?: bigint; maxUsdm?: bigint }
export type DailyCaps = { eth?: bigint; usdm?: bigint }

const USDM_DECIMALS = 18
const KEPT_DAYS = 8

/** An amount option (`--max-eth 0.05`), or a usage error naming it. */
export function parseAmount(option: string, value: string | undefined, unit: 'ETH' | 'USDm'): bigint | undefined {
  if (value === undefined) return undefined
  if (!/^(\d+\.?\d*|\.\d+)$/.test(value)) throw new UsageError(`${option} takes an amount of ${unit} such as 0.5, not ${JSON.stringify(value)}`, 'INVALID_AMOUNT')
  try {
    return unit === 'ETH' ? parseEther(value) : parseUnits(value, USDM_DECIMALS)
  } catch {
    throw new UsageError(`${option} ${value}: too many decimals (at most 18)`, 'INVALID_AMOUNT')
  }
}

export const eth = (wei: bigint) => `${formatEther(wei)} ETH`
export const usdm = (wei: bigint) => `${formatUnits(wei, USDM_DECIMALS)} USDm`

type StateFile = {
  version: 1
  dailyCaps: { eth?: string; usdm?: string }
  /** UTC day (YYYY-MM-DD) → wallet (checksummed) → wei spent. */
  spent: Record<string, Record<string, { eth: string; usdm: string }>>
}

/** The state file: BURN_TO_CREATE_STATE, else $XDG_STATE_HOME/burn-to-create/state.json (~/.local/state by default). */
export function statePath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.BURN_TO_CREATE_STATE) return env.BURN_TO_CREATE_STATE
  return path.join(env.XDG_STATE_HOME || path.join(os.homedir(), '.local', 'state'), 'burn-to-create', 'state.json')
}

export const utcDay = (ms: number = Date.now()) => new Date(ms).toISOString().slice(0, 10)

export function createSpendState(file: string = statePath(), clock: () => number = Date.now) {
  async function read(): Promise<StateFile> {
    let text: string
    try {
      text = await readFile(file, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, dailyCaps: {}, spent: {} }
      throw new UsageError(`cannot read the CLI's state ${file}: ${(error as Error).message}`, 'STATE_UNREADABLE')
    }
    try {
      const parsed = JSON.parse(text) as StateFile
      if (parsed.version !== 1 || typeof parsed.spent !== 'object') throw new Error('not a state file of this CLI')
      return { version: 1, dailyCaps: parsed.dailyCaps ?? {}, spent: parsed.spent }
    } catch (error) {
      // A cap that cannot be read must not be taken as no cap.
      throw new UsageError(`the CLI's state ${file} is damaged (${(error as Error).message}); fix or remove it (burn-to-create limits --daily-eth ... sets the caps again)`, 'STATE_UNREADABLE')
    }
  }
  async function write(state: StateFile) {
    const days = Object.keys(state.spent).sort()
    for (const day of days.slice(0, Math.max(0, days.length - KEPT_DAYS))) delete state.spent[day]
    await mkdir(path.dirname(file), { recursive: true })
    const temp = `${file}.${process.pid}.tmp`
    await writeFile(temp, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 })
    await rename(temp, file)
  }
  const big = (v: string | undefined) => (v === undefined ? undefined : BigInt(v))
  return {
    file,
    async caps(): Promise<DailyCaps> {
      const { dailyCaps } = await read()
      return { eth: big(dailyCaps.eth), usdm: big(dailyCaps.usdm) }
    },
    /** Sets (a bigint) or removes (null) a daily cap; undefined leaves it. */
    async setCaps(caps: { eth?: bigint | null; usdm?: bigint | null }) {
      const state = await read()
      for (const key of ['eth', 'usdm'] as const) {
        if (caps[key] === null) delete state.dailyCaps[key]
        else if (caps[key] !== undefined) state.dailyCaps[key] = caps[key]!.toString()
      }
      await write(state)
    },
    async spentToday(wallet: string): Promise<Spend> {
      const entry = (await read()).spent[utcDay(clock())]?.[getAddress(wallet)]
      return { eth: BigInt(entry?.eth ?? 0), usdm: BigInt(entry?.usdm ?? 0) }
    },
    /** Counts spending before it is sent: a crash after sending cannot leave it uncounted. */
    async record(wallet: string, spend: Partial<Spend>) {
      if (!spend.eth && !spend.usdm) return
      const state = await read()
      const day = (state.spent[utcDay(clock())] ??= {})
      const entry = (day[getAddress(wallet)] ??= { eth: '0', usdm: '0' })
      entry.eth = (BigInt(entry.eth) + (spend.eth ?? 0n)).toString()
      entry.usdm = (BigInt(entry.usdm) + (spend.usdm ?? 0n)).toString()
      await write(state)
    },
  }
}

export type SpendState = ReturnType<typeof createSpendState>

/**
 * Refuses a plan that would go over a cap, before anything is sent: a usage error (exit 2)
 * that names the cap, what the plan would spend and, for a daily cap, what was spent today.
 */
export async function checkSpend(what: string, planned: Spend, caps: CommandCaps, state: SpendState, wallet: string): Promise<void> {
  if (caps.maxEth !== undefined && planned.eth > caps.maxEth) {
    throw new UsageError(`--max-eth ${formatEther(caps.maxEth)}: ${what} would spend ${eth(planned.eth)}. Nothing was sent.`, 'MAX_ETH_EXCEEDED')
  }
  if (caps.maxUsdm !== undefined && planned.usdm > caps.maxUsdm) {
    throw new UsageError(`--max-usdm ${formatUnits(caps.maxUsdm, USDM_DECIMALS)}: ${what} would pay ${usdm(planned.usdm)}. Nothing was sent.`, 'MAX_USDM_EXCEEDED')
  }
  const daily = await state.caps()
  if (daily.eth === undefined && daily.usdm === undefined) return
  const spent = await state.spentToday(wallet)
  if (daily.eth !== undefined && spent.eth + planned.eth > daily.eth) {
    throw new UsageError(
      `daily ETH cap ${eth(daily.eth)} (burn-to-create limits): ${getAddress(wallet)} spent ${eth(spent.eth)} today (UTC) and ${what} would spend ${eth(planned.eth)} more. Nothing was sent.`,
      'DAILY_ETH_EXCEEDED',
    )
  }
  if (daily.usdm !== undefined && spent.usdm + planned.usdm > daily.usdm) {
    throw new UsageError(
      `daily USDm cap ${usdm(daily.usdm)} (burn-to-create limits): ${getAddress(wallet)} paid ${usdm(spent.usdm)} today (UTC) and ${what} would pay ${usdm(planned.usdm)} more. Nothing was sent.`,
      'DAILY_USDM_EXCEEDED',
    )
  }
}
