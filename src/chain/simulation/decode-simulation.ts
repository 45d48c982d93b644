import { decodeErrorResult, formatEther, formatGwei, getAddress, type Abi, type Address, type Hex } from 'viem'
import { revertErrorsAbi } from '../abis/revert-errors.ts'

/**
 * One transaction of a plan, as it will be sent (from the plan's wallet); `step` is its number
 * in the plan when the plan numbers its steps itself (default: its position, from 1).
 */
export type SimulationCall = { to: Address; data: Hex; value: bigint; functionName?: string; step?: number }

/** A call's result in eth_simulateV1's answer (execution-apis). */
export type RawSimulatedCall = {
  status: string
  gasUsed: string
  returnData?: string
  logs?: Array<{ address: string; topics: string[]; data: string }>
  error?: { code: number; message: string; data?: string }
}

/** How eth_simulateV1 names ETH in its traced transfers (`traceTransfers`). */
export const ETH_PSEUDO_TOKEN = '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE' as const
const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'

export type TokenMovement = { kind: 'eth' | 'erc20'; token: Address; symbol: string | null; from: Address; to: Address; amount: bigint }

export type SimulatedStep = {
  /** The plan's number for the step (by default its position, from 1). */
  step: number
  to: Address
  functionName: string | null
  /** null: not simulated (an earlier step fails, or the RPC simulates the first step only). */
  ok: boolean | null
  revertReason: string | null
  revertData: Hex | null
  /** What the step consumes (the simulated receipt's gasUsed; an eth_estimateGas figure in the eth_call fallback). */
  gasUsed: bigint | null
  movements: TokenMovement[]
}

export type SimulationMethod = 'eth_simulateV1' | 'eth_call'

export type PlanSimulation = {
  method: SimulationMethod
  /** The block the plan was simulated on top of. */
  block: bigint
  from: Address
  /** true: every step succeeds and the wallet pays for them; false: see reason; null: not fully known. */
  executable: boolean | null
  reason: string | null
  /** The number of the first step that fails, when one does. */
  failedStep: number | null
  gasUsed: bigint
  gasPrice: bigint
  /** gasUsed × gasPrice: what the simulated steps cost in fees. */
  fee: bigint
  /** ETH the steps send (their values). */
  value: bigint
  balance: bigint
  steps: SimulatedStep[]
}

/** Token symbols by lower-case address, for the movements. */
export type TokenSymbols = Record<string, string>

const PANICS: Record<number, string> = {
  0x01: 'assertion failed',
  0x11: 'arithmetic overflow or underflow',
  0x12: 'division by zero',
  0x21: 'invalid enum value',
  0x22: 'invalid storage byte array',
  0x31: 'pop on an empty array',
  0x32: 'array index out of bounds',
  0x41: 'out of memory',
  0x51: 'call to an invalid internal function',
}

/**
 * A revert's data in words: the reason string, the panic, or the custom error with its
 * arguments; an unknown custom error by its selector; no data at all by the node's message.
 */
export function decodeRevertReason(data: string | undefined, message?: string): string {
  if (!data || data === '0x') return message && !/^execution reverted$/i.test(message) ? message : 'reverted without a reason'
  try {
    const decoded = decodeErrorResult({ abi: revertErrorsAbi as Abi, data: data as Hex })
    if (decoded.errorName === 'Error') return String(decoded.args?.[0])
    if (decoded.errorName === 'Panic') {
      const code = Number(decoded.args?.[0])
      return `panic 0x${code.toString(16).padStart(2, '0')} (${PANICS[code] ?? 'unknown panic'})`
    }
    const inputs = decoded.abiItem.type === 'error' ? decoded.abiItem.inputs : []
    const args = ((decoded.args ?? []) as readonly unknown[]).map((arg, i) => `${inputs[i]?.name ?? i}: ${String(arg)}`)
    return `${decoded.errorName}(${args.join(', ')})`
  } catch {
    return `custom error ${data.slice(0, 10)}`
  }
}

const topicAddress = (topic: string) => getAddress(`0x${topic.slice(-40)}`)

/**
 * Value movements in a call's logs: ERC-20 Transfer logs (three topics; an ERC-721 Transfer
 * has four and is not a fungible movement) and ETH as eth_simulateV1 traces it, a Transfer of
 * {@link ETH_PSEUDO_TOKEN}.
 */
export function decodeMovements(logs: RawSimulatedCall['logs'], symbols: TokenSymbols): TokenMovement[] {
  const out: TokenMovement[] = []
  for (const log of logs ?? []) {
    if (log.topics.length !== 3 || log.topics[0]?.toLowerCase() !== TRANSFER_TOPIC || !/^0x[0-9a-fA-F]{64}$/.test(log.data)) continue
    const eth = log.address.toLowerCase() === ETH_PSEUDO_TOKEN.toLowerCase()
    const token = eth ? ETH_PSEUDO_TOKEN : getAddress(log.address)
    out.push({
      kind: eth ? 'eth' : 'erc20',
      token,
      symbol: eth ? 'ETH' : (symbols[token.toLowerCase()] ?? null),
      from: topicAddress(log.topics[1]!),
      to: topicAddress(log.topics[2]!),
      amount: BigInt(log.data),
    })
  }
  return out
}

const stepOf = (call: SimulationCall, index: number) => ({ step: call.step ?? index + 1, to: call.to, functionName: call.functionName ?? null })

/** The plan's steps from eth_simulateV1's calls (one result per call, in order). */
export function decodeSimulatedSteps(calls: SimulationCall[], results: RawSimulatedCall[], symbols: TokenSymbols): SimulatedStep[] {
  return calls.map((call, i) => {
    const r = results[i]
    if (!r) return notSimulated(call, i)
    const ok = r.status === '0x1'
    const revertData = ok ? null : ((r.error?.data ?? r.returnData ?? '0x') as Hex)
    return {
      ...stepOf(call, i),
      ok,
      revertReason: ok ? null : decodeRevertReason(revertData ?? undefined, r.error?.message),
      revertData: revertData === '0x' ? null : revertData,
      gasUsed: BigInt(r.gasUsed),
      movements: ok ? decodeMovements(r.logs, symbols) : [],
    }
  })
}

export function notSimulated(call: SimulationCall, index: number): SimulatedStep {
  return { ...stepOf(call, index), ok: null, revertReason: null, revertData: null, gasUsed: null, movements: [] }
}

/** A step the node refused to run at all (eth_simulateV1's -38xxx errors: funds, nonce, gas). */
export function refusedStep(call: SimulationCall, index: number, message: string): SimulatedStep {
  return { ...stepOf(call, index), ok: false, revertReason: message, revertData: null, gasUsed: null, movements: [] }
}

const describeStep = (s: SimulatedStep) => `step ${s.step}${s.functionName ? ` (${s.functionName})` : ''}`

/**
 * The verdict on a simulated plan: the first failing step, or else whether the wallet's ETH
 * covers what the steps send plus their gas at the current price.
 */
export function summarizeSimulation(input: {
  method: SimulationMethod
  block: bigint
  from: Address
  calls: SimulationCall[]
  steps: SimulatedStep[]
  balance: bigint
  gasPrice: bigint
}): PlanSimulation {
  const { steps, balance, gasPrice } = input
  const gasUsed = steps.reduce((sum, s) => sum + (s.gasUsed ?? 0n), 0n)
  const fee = gasUsed * gasPrice
  const value = input.calls.reduce((sum, c) => sum + c.value, 0n)
  const base = { method: input.method, block: input.block, from: input.from, gasUsed, gasPrice, fee, value, balance, steps }
  const failed = steps.find((s) => s.ok === false)
  if (failed) {
    const why = failed.gasUsed === null ? `cannot be sent: ${failed.revertReason}` : `would revert: ${failed.revertReason}`
    return { ...base, executable: false, failedStep: failed.step, reason: `${capitalize(describeStep(failed))} ${why}.` }
  }
  const needed = value + fee
  if (balance < needed) {
    const parts = [value > 0n ? `${formatEther(value)} ETH sent with the steps` : '', `${formatEther(fee)} ETH of gas at ${formatGwei(gasPrice)} gwei`].filter(Boolean)
    return {
      ...base, executable: false, failedStep: null,
      reason: `The wallet holds ${formatEther(balance)} ETH; the plan needs at least ${formatEther(needed)} ETH (${parts.join(' + ')}).`,
    }
  }
  const unknown = steps.find((s) => s.ok === null)
  if (unknown) {
    return { ...base, executable: null, failedStep: null, reason: `Only the first step was simulated (the RPC does not serve eth_simulateV1, which carries state from step to step); ${describeStep(unknown)} and later are unchecked.` }
  }
  return { ...base, executable: true, failedStep: null, reason: null }
}

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1)
