import { z } from 'zod'
import { formatUnits, parseUnits } from 'viem'
import { AppError } from '../../errors/app-error.ts'
import type { PlanResult } from '../../chain/builders/plan.ts'
import { CHAIN_ID, TOKEN_DECIMALS } from '../../chain/constants.ts'
import { addressOut, boundedInt, hexData, wei } from '../schemas.ts'
import { simulationOut } from '../plan-simulation.ts'

/** 10^12 tokens of 18 decimals. */
const MAX_TOKEN_WEI = 10n ** 30n

/** A token amount in human units ("1.5"), parsed to wei (18 decimals); INVALID_AMOUNT otherwise. */
export const humanAmount = (description: string) =>
  z
    .string()
    .regex(/^\d+(\.\d{1,18})?$/, { error: 'must be a positive decimal amount in token units' })
    .meta({ errorCode: 'INVALID_AMOUNT', description })
    .transform((value) => parseUnits(value, TOKEN_DECIMALS))
    .refine((v) => v > 0n, { error: 'must be above zero' })
    // Far above any token's supply, and far below uint256: a typo is refused here, not by the ABI encoder.
    .refine((v) => v <= MAX_TOKEN_WEI, { error: 'is larger than any token supply' })

/** A positive integer id from the query or the path. */
export const proposalIdIn = boundedInt(1).meta({ description: 'Proposal id (1, 2, …)' })

export const planStepOut = z.object({
  to: addressOut,
  value: wei,
  data: hexData,
  functionName: z.string(),
  args: z.array(z.unknown()),
})

export const planOut = { chainId: z.number().int(), executionPlan: z.array(planStepOut), simulation: simulationOut.nullable() }

export const fmt = (v: bigint) => formatUnits(v, TOKEN_DECIMALS)
export { CHAIN_ID }

/** A builder's plan, or its refusal as a 400 with the reason in details. */
export function planOrThrow<R extends string>(result: PlanResult<R>, codes: Partial<Record<R, 'INVALID_INPUT' | 'INVALID_AMOUNT' | 'INVALID_ADDRESS' | 'INSUFFICIENT_BALANCE'>> = {}, details: Record<string, unknown> = {}) {
  if (result.ok) return result.plan
  throw new AppError(codes[result.reason] ?? 'INVALID_INPUT', result.message, { details: { reason: result.reason, ...details } })
}

/** The pair side of MC (MEGACHAD) or MG (the second token). */
export function pairSides(pair: { tokenA: `0x${string}`; reserveA: bigint; reserveB: bigint }, mc: `0x${string}`) {
  const aIsMc = pair.tokenA.toLowerCase() === mc.toLowerCase()
  return { aIsMc, reserveMc: aIsMc ? pair.reserveA : pair.reserveB, reserveMg: aIsMc ? pair.reserveB : pair.reserveA }
}

export const proposalOut = z.object({
  id: z.number().int(),
  proposer: addressOut,
  description: z.string(),
  state: z.string(),
  forVotes: wei,
  againstVotes: wei,
  abstainVotes: wei,
  startTime: z.number().int(),
  endTime: z.number().int(),
  eta: z.number().int(),
  executed: z.boolean(),
  vetoed: z.boolean(),
})

export function proposalJson(p: import('../../chain/reads/read-proposals.ts').ProposalSummary) {
  return {
    id: Number(p.id), proposer: p.proposer, description: p.description, state: p.state, forVotes: p.forVotes.toString(),
    againstVotes: p.againstVotes.toString(), abstainVotes: p.abstainVotes.toString(), startTime: Number(p.startTime),
    endTime: Number(p.endTime), eta: Number(p.eta), executed: p.executed, vetoed: p.vetoed,
  }
}

/** One proposal or a 404. */
export async function proposalOr404(chain: import('../../chain/clients.ts').Chain, id: number, voter?: `0x${string}`) {
  const { readProposal } = await import('../../chain/reads/read-proposals.ts')
  const p = await readProposal(chain, BigInt(id), voter)
  if (!p) throw new AppError('NOT_FOUND', `Proposal ${id} does not exist.`, { details: { proposalId: id } })
  return p
}

/** A wrong-state refusal names the current state. */
export const stateDetails = (state: string, proposalId: number) => ({ currentState: state, proposalId })

export const eligibilityOut = {
  proposer: addressOut.nullable(),
  canPropose: z.boolean().nullable(),
  currentWeek: z.number().int(),
  top3: z.array(z.object({ address: addressOut, amount: wei, amountFormatted: z.string() })),
  lastWeekTop3: z.array(z.object({ address: addressOut, amount: wei, amountFormatted: z.string() })).describe('Last week\'s top 3, who may propose this week too'),
}

export function eligibilityJson(e: import('../../chain/reads/read-propose-eligibility.ts').ProposeEligibility, proposer?: string) {
  return {
    proposer: proposer ?? null,
    canPropose: e.canPropose ?? null,
    currentWeek: Number(e.currentWeek),
    top3: e.top3.map((t) => ({ address: t.address, amount: t.amount.toString(), amountFormatted: fmt(t.amount) })),
    lastWeekTop3: e.lastWeekTop3.map((t) => ({ address: t.address, amount: t.amount.toString(), amountFormatted: fmt(t.amount) })),
  }
}
