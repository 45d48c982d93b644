import { encodeFunctionData, type Abi, type Hex } from 'viem'

/** JSON-safe argument values: bigints become decimal strings, recursively. */
export type PlanArg = string | number | boolean | PlanArg[]

/** One unsigned transaction of an execution plan, in the order a wallet sends them. */
export type PlanStep = {
  to: `0x${string}`
  /** Wei, decimal string. */
  value: string
  data: Hex
  functionName: string
  args: PlanArg[]
}

/**
 * What a builder answers: an ordered plan, or the reason it refuses (expected outcomes are
 * values; the endpoint maps a reason to its error code).
 */
export type PlanResult<Reason extends string = string> =
  | { ok: true; plan: PlanStep[] }
  | { ok: false; reason: Reason; message: string }

export const refuse = <Reason extends string>(reason: Reason, message: string): { ok: false; reason: Reason; message: string } => ({ ok: false, reason, message })

function jsonArg(value: unknown): PlanArg {
  if (typeof value === 'bigint') return value.toString()
  if (Array.isArray(value)) return value.map(jsonArg)
  return value as PlanArg
}

/** Encodes one call as a plan step. */
export function planStep(call: { to: `0x${string}`; abi: Abi | readonly unknown[]; functionName: string; args?: readonly unknown[]; value?: bigint }): PlanStep {
  const args = call.args ?? []
  return {
    to: call.to,
    value: (call.value ?? 0n).toString(),
    data: encodeFunctionData({ abi: call.abi as Abi, functionName: call.functionName, args } as never),
    functionName: call.functionName,
    args: args.map(jsonArg),
  }
}
