import { getAddress, maxUint256 } from 'viem'
import { z } from 'zod'
import { defineOperation } from '../define.ts'
import { addressIn } from '../schemas.ts'
import { readProposeEligibility } from '../../chain/reads/read-propose-eligibility.ts'
import { buildProposePlan } from '../../chain/builders/build-governance-plans.ts'
import { defiAddress } from '../../chain/reads/defi-contracts.ts'
import { AppError } from '../../errors/app-error.ts'
import { CHAIN_ID, eligibilityJson, eligibilityOut, planOrThrow, planOut } from './shared.ts'
import { simulateForCaller } from '../plan-simulation.ts'

const targetIn = z
  .string()
  .regex(/^0x[a-fA-F0-9]{40}$/, { error: 'must be 0x followed by 40 hex digits' })
  .meta({ errorCode: 'INVALID_ADDRESS', description: 'Target contract' })
  // Any case is accepted (every address the API takes is matched case-insensitively): a mixed-case spelling with a wrong checksum made viem's
  // encoder throw, a 500 found by test/ops/fuzz.test.ts.
  .transform((value) => getAddress(value.toLowerCase()))
const weiIn = z
  .string()
  .regex(/^\d{1,78}$/, { error: 'must be a wei amount (decimal digits)' })
  // 78 digits reach past uint256: refused here, not by the ABI encoder (a 500).
  // (Zod runs this after a failed regex too: only digits reach BigInt.)
  .refine((value) => !/^\d+$/.test(value) || BigInt(value) <= maxUint256, { error: 'must be at most 2^256 - 1' })
  .meta({ errorCode: 'INVALID_AMOUNT', description: 'Wei, decimal string' })
const calldataIn = z.string().regex(/^0x([a-fA-F0-9]{2})*$/, { error: 'must be 0x followed by an even number of hex digits' }).meta({ description: 'Calldata hex' })

export const buildProposeTx = defineOperation({
  id: 'build_propose_tx',
  effect: 'build',
  mcp: { tool: 'build_tx', as: 'propose' },
  limit: 'expensive',
  method: 'POST',
  path: '/api/defi/governance/propose-tx',
  summary: 'propose() plan, with the proposer eligibility echoed; 400 on array lengths, addresses, wei or calldata',
  description: "Only the ranking's top 3 burners of this or last week may propose: the plan is built for anyone (the call reverts for others), and canPropose tells which. With proposer the plan is simulated from it and handed out even when it would revert, marked simulation.executable false with the reason.",
  tags: ['defi'],
  input: z.object({
    proposer: addressIn('Would-be proposer').optional(),
    targets: z.array(targetIn).min(1).max(10),
    values: z.array(weiIn).min(1).max(10),
    calldatas: z.array(calldataIn).min(1).max(10),
    description: z.string().min(1).max(10_000),
  }),
  output: z.object({ ...planOut, eligibility: z.object({ chainId: z.number().int(), ...eligibilityOut }) }),
  errors: ['INVALID_ADDRESS', 'INVALID_AMOUNT', 'UPSTREAM_FAILED'],
  cacheControl: 'no-store',
  requires: ['governance', 'ranking'],
  uses: ['chain'],
  async handler(ctx, { proposer, targets, values, calldatas, description }) {
    if (targets.length !== values.length || targets.length !== calldatas.length) {
      throw new AppError('INVALID_INPUT', 'targets, values and calldatas must have the same length.', {
        details: { targets: targets.length, values: values.length, calldatas: calldatas.length },
      })
    }
    const plan = planOrThrow(
      buildProposePlan({ governance: defiAddress(ctx.chain, 'governance'), targets, values: values.map(BigInt), calldatas, description }),
    )
    const [eligibility, simulation] = await Promise.all([readProposeEligibility(ctx.chain, proposer), simulateForCaller(ctx.chain, proposer, plan, 'mark')])
    return { chainId: CHAIN_ID, executionPlan: plan, simulation, eligibility: { chainId: CHAIN_ID, ...eligibilityJson(eligibility, proposer) } }
  },
})
