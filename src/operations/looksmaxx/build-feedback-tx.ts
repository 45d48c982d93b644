import { z } from 'zod'
import { getAddress } from 'viem'
import { defineOperation } from '../define.ts'
import { addressOut, boundedInt, txHash } from '../schemas.ts'
import { planOrThrow, planOut } from '../defi/shared.ts'
import { receiptsOut } from './schemas.ts'
import { receiptsOf } from './receipts-of.ts'
import { mintedSubmission } from './minted-submission.ts'
import { AppError } from '../../errors/app-error.ts'
import { buildGiveFeedback } from '../../chain/builders/build-give-feedback.ts'
import { receiptDocumentHash } from '../../receipts/receipt-document.ts'
import { CHAIN_ID } from '../../chain/constants.ts'
import { simulateForCaller } from '../plan-simulation.ts'
import type { PaymentRequirements } from '../../x402/requirements.ts'

const tag = (fallback: string, description: string) =>
  z.string().max(64, { error: 'must be at most 64 characters' }).default(fallback).describe(description)

export const buildFeedbackTx = defineOperation({
  id: 'build_feedback_tx',
  mcp: { tool: 'build_tx', as: 'feedback' },
  limit: 'expensive',
  method: 'GET',
  path: '/api/x402/looksmaxx/{burnTxHash}/feedback-tx',
  summary: "ERC-8004 giveFeedback for the service's agent, citing a looksmaxx's signed receipts as proof (one signature)",
  description:
    "After a mint, the transaction that rates the service's ERC-8004 agent on the reputation registry (v1 interface): feedbackURI is the looksmaxx's receipt document (GET /api/x402/looksmaxx/{burnTxHash}/receipt) and feedbackHash the keccak256 of its bytes, so anyone can fetch the receipts, check the hash and verify both signatures against the published receipt key. Send it from the wallet that paid (or burned): the agent's owner and operators cannot rate it. The default is 100 on ERC-8004's `starred` scale (0-100, valueDecimals 0). The chadboard and /api/agent/info count it once mined.",
  tags: ['looksmaxx'],
  input: z.object({
    burnTxHash: txHash.describe('burnTxHash or devTxHash of the minted looksmaxx'),
    value: z
      .string()
      .regex(/^-?\d{1,39}$/, { error: 'must be an integer, e.g. 100 (the score is value / 10^valueDecimals)' })
      .default('100')
      .describe('The score as an integer; the score is value / 10^valueDecimals (default 100)')
      .transform((v) => BigInt(v)),
    valueDecimals: boundedInt(0, 18).default(0).describe('Decimals of value, 0 to 18 (default 0)'),
    tag1: tag('starred', 'ERC-8004 tag1 (default starred: a 0-100 rating)'),
    tag2: tag('', 'ERC-8004 tag2 (default empty)'),
  }),
  output: z.object({
    ...planOut,
    agentId: z.string(),
    agentRegistry: z.string(),
    sender: addressOut.describe('The wallet expected to send it: the payer of the looksmaxx (or the burner, without a payment)'),
    feedback: z.object({
      value: z.string(),
      valueDecimals: z.number().int(),
      tag1: z.string(),
      tag2: z.string(),
      endpoint: z.string(),
      feedbackURI: z.string(),
      feedbackHash: z.string(),
    }),
    receipts: receiptsOut,
  }),
  errors: ['NOT_FOUND', 'NOT_MINTED'],
  cacheControl: 'no-store',
  uses: ['db', 'chain', 'receipts', 'baseUrl'],
  async handler(ctx, input) {
    const agentId = ctx.chain.agentId
    if (agentId === undefined) throw new AppError('NOT_FOUND', 'This service has no ERC-8004 agent id (AGENT_ID), so there is no agent to rate.')
    const submission = await mintedSubmission(ctx, input.burnTxHash)
    const receipts = await receiptsOf(ctx, submission)
    const base = ctx.baseUrl()
    const requirements = submission.paymentRequirements as PaymentRequirements | null
    const feedback = {
      value: input.value,
      valueDecimals: input.valueDecimals,
      tag1: input.tag1,
      tag2: input.tag2,
      // The endpoint that was used: the paid resource (the route or the MCP endpoint), or the free one.
      endpoint: requirements?.resource ?? `${base}/api/generate`,
      feedbackURI: `${base}/api/x402/looksmaxx/${submission.burnTxHash}/receipt`,
      feedbackHash: receiptDocumentHash(receipts),
    }
    const plan = planOrThrow(buildGiveFeedback({ reputationRegistry: ctx.chain.contracts.reputationRegistry, agentId, ...feedback }), { too_many_decimals: 'INVALID_INPUT', value_too_large: 'INVALID_INPUT' })
    const sender = getAddress(submission.paymentFrom ?? submission.burner)
    // Marked, not refused: a rating the registry would refuse from this sender (the agent's owner)
    // says so, and the caller may send it from the wallet that should rate.
    const simulation = await simulateForCaller(ctx.chain, sender, plan, 'mark')
    return {
      chainId: CHAIN_ID,
      executionPlan: plan,
      agentId: agentId.toString(),
      agentRegistry: `eip155:${CHAIN_ID}:${ctx.chain.contracts.identityRegistry}`,
      sender,
      simulation,
      feedback: { ...feedback, value: feedback.value.toString() },
      receipts,
    }
  },
})
