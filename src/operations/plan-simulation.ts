import { z } from 'zod'
import type { Address, Hex } from 'viem'
import { AppError } from '../errors/app-error.ts'
import type { Chain } from '../chain/clients.ts'
import { simulatePlan } from '../chain/simulation/simulate-plan.ts'
import type { PlanSimulation } from '../chain/simulation/decode-simulation.ts'
import { addressOut, hexData, wei } from './schemas.ts'

const movementOut = z.object({
  kind: z.enum(['eth', 'erc20']),
  token: addressOut.describe('The token contract; ETH is 0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE (eth_simulateV1\'s traced transfers)'),
  symbol: z.string().nullable().describe('ETH, or the symbol of a token the service knows (null for others)'),
  from: addressOut,
  to: addressOut,
  amount: wei,
})

const simulatedStepOut = z.object({
  step: z.number().int().describe('The plan\'s number for the step: its `step` where the plan numbers them (looksmaxx), else its position in executionPlan from 1'),
  to: addressOut,
  functionName: z.string().nullable(),
  ok: z.boolean().nullable().describe('true: succeeds; false: reverts or is refused (revertReason says why); null: not simulated'),
  revertReason: z.string().nullable().describe('The decoded reason: a require message, a custom error with its arguments, a panic, or why the node refused the transaction'),
  revertData: hexData.nullable().describe('The raw revert data'),
  gasUsed: z.number().int().nullable().describe('Gas the step consumes as simulated (a wallet\'s gas limit needs headroom above it)'),
  movements: z.array(movementOut).describe('ERC-20 transfers and ETH movements the step causes, in order'),
})

/**
 * The simulation every transaction builder attaches to its plan (docs/agents/simulated-plans.md):
 * the plan's transactions run from the sending wallet on the latest block, in order, with the
 * state carried from one to the next.
 */
export const simulationOut = z
  .object({
    method: z.enum(['eth_simulateV1', 'eth_call']).describe('eth_simulateV1: every step, state carried; eth_call: the RPC lacks eth_simulateV1 and only step 1 was checked'),
    block: z.number().int().describe('The block the plan was simulated on top of'),
    from: addressOut.describe('The wallet the plan was simulated from'),
    executable: z.boolean().nullable().describe('true: every step succeeds and the wallet pays for them; false: see reason; null: not every step could be checked'),
    reason: z.string().nullable(),
    failedStep: z.number().int().nullable().describe('The first step that fails'),
    gasUsed: z.number().int().describe('Sum over the simulated steps'),
    gasPrice: wei.describe('The chain\'s gas price (eth_gasPrice) now'),
    fee: wei.describe('gasUsed × gasPrice'),
    value: wei.describe('ETH the steps send'),
    balance: wei.describe('The wallet\'s ETH now'),
    steps: z.array(simulatedStepOut),
  })
  .describe('The plan simulated from the sending wallet (null when the builder was not told who sends it)')

export type SimulationJson = z.input<typeof simulationOut>

export function simulationJson(s: PlanSimulation): SimulationJson {
  return {
    method: s.method,
    block: Number(s.block),
    from: s.from,
    executable: s.executable,
    reason: s.reason,
    failedStep: s.failedStep,
    gasUsed: Number(s.gasUsed),
    gasPrice: s.gasPrice.toString(),
    fee: s.fee.toString(),
    value: s.value.toString(),
    balance: s.balance.toString(),
    steps: s.steps.map((step) => ({
      step: step.step,
      to: step.to,
      functionName: step.functionName,
      ok: step.ok,
      revertReason: step.revertReason,
      revertData: step.revertData,
      gasUsed: step.gasUsed === null ? null : Number(step.gasUsed),
      movements: step.movements.map((m) => ({ ...m, amount: m.amount.toString() })),
    })),
  }
}

/** A transaction as the builders hand it out (value as a decimal string of wei). */
export type PlannedTx = { to: `0x${string}`; data: `0x${string}`; value?: string | bigint; functionName?: string; step?: number }

/** The plan's transactions when every one is complete (a swap the DEX could not quote has no calldata). */
export function sendableTxs(txs: Array<{ to?: string; data?: string; value?: string; functionName?: string; step?: number }>): PlannedTx[] | undefined {
  return txs.every((tx) => tx.to && tx.data) ? (txs as PlannedTx[]) : undefined
}

/**
 * What a builder does with a plan that would not go through: `refuse` answers 400 with the step
 * and the reason (PLAN_WOULD_REVERT, or INSUFFICIENT_BALANCE when only the ETH for value and gas
 * is short); `mark` hands the plan out with `executable: false` and the reason.
 */
export type SimulationPolicy = 'refuse' | 'mark'

/**
 * Simulates a builder's plan from the wallet that will send it, or null when the builder does
 * not know that wallet (or has nothing to send). Under `refuse`, a plan that would fail throws.
 */
export async function simulateForCaller(chain: Chain, from: Address | undefined, txs: PlannedTx[], policy: SimulationPolicy): Promise<SimulationJson | null> {
  if (!from || txs.length === 0) return null
  const calls = txs.map((tx) => ({ to: tx.to, data: tx.data as Hex, value: BigInt(tx.value ?? 0), functionName: tx.functionName, step: tx.step }))
  const simulation = simulationJson(await simulatePlan(chain, from, calls))
  if (policy === 'refuse' && simulation.executable === false) throw planWouldFail(simulation)
  return simulation
}

export function planWouldFail(simulation: SimulationJson): AppError {
  const failed = simulation.steps.find((s) => s.step === simulation.failedStep)
  const details = {
    // As the builders' own refusals, details.reason names the kind.
    reason: failed ? 'would_revert' : 'insufficient_eth',
    ...(failed ? { step: failed.step, functionName: failed.functionName, revertReason: failed.revertReason, revertData: failed.revertData } : {}),
    simulation,
  }
  return new AppError(failed ? 'PLAN_WOULD_REVERT' : 'INSUFFICIENT_BALANCE', `${simulation.reason} (Simulated from ${simulation.from} on block ${simulation.block}: the plan is not handed out.)`, { details })
}
