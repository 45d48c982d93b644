import type { Address } from 'viem'
import { txWords } from './recipient.ts'

/** A number as answers write it: "225,000", "6,844.97". */
export const fmt = (n: unknown, digits = 2) =>
  typeof n === 'number' && Number.isFinite(n) ? n.toLocaleString('en-US', { maximumFractionDigits: digits }) : String(n ?? '?')

/** A decimal string of an operation ("6844.974336063857105362") worded like `fmt`: "6,844.97". */
export const fmtDecimal = (s: unknown, digits = 2) => (typeof s === 'string' && /^\d+(\.\d+)?$/.test(s) ? fmt(Number(s), digits) : fmt(s, digits))

/** What each transaction of a plan pays and to whom: "transaction 1 sends 0.5 ETH to 0x… (swapRouter), calling exactInputSingle". */
export function stepsWords(
  steps: ReadonlyArray<{ to?: string; value?: string; functionName?: string; data?: string }>,
  contractName: (address: Address) => string | undefined,
  label = (i: number) => `transaction ${i + 1}`,
): string {
  return steps.map((tx, i) => `${label(i)} ${txWords(tx, contractName)}`).join('; ')
}
