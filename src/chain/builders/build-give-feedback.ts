import { reputationRegistryAbi } from '../abis/registries.ts'
import { planStep, refuse, type PlanResult } from './plan.ts'

export type FeedbackArgs = {
  reputationRegistry: `0x${string}`
  agentId: bigint
  /** The score as the signed fixed-point value ERC-8004 stores: value / 10^valueDecimals. */
  value: bigint
  valueDecimals: number
  tag1: string
  tag2: string
  endpoint: string
  feedbackURI: string
  feedbackHash: `0x${string}`
}

/** The registry's bound on |value| (1e38), and on valueDecimals (18). */
const MAX_ABS_VALUE = 10n ** 38n

/**
 * ERC-8004 v1 giveFeedback for the service's agent as one unsigned transaction, or the reason
 * the registry would refuse it. The sender is the client (an agent's owner or operator cannot
 * rate it; the registry reverts).
 */
export function buildGiveFeedback(args: FeedbackArgs): PlanResult<'too_many_decimals' | 'value_too_large'> {
  if (!Number.isInteger(args.valueDecimals) || args.valueDecimals < 0 || args.valueDecimals > 18) {
    return refuse('too_many_decimals', `valueDecimals must be from 0 to 18, got ${args.valueDecimals}.`)
  }
  if (args.value > MAX_ABS_VALUE || args.value < -MAX_ABS_VALUE) return refuse('value_too_large', `|value| may be at most 1e38, got ${args.value}.`)
  return {
    ok: true,
    plan: [
      planStep({
        to: args.reputationRegistry,
        abi: reputationRegistryAbi,
        functionName: 'giveFeedback',
        args: [args.agentId, args.value, args.valueDecimals, args.tag1, args.tag2, args.endpoint, args.feedbackURI, args.feedbackHash],
      }),
    ],
  }
}
