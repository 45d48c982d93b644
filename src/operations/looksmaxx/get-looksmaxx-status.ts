import { z } from 'zod'
import { defineOperation } from '../define.ts'
import { addressOut, txHash } from '../schemas.ts'
import { AppError } from '../../errors/app-error.ts'
import { findSubmissionByTxHash, listSteps } from '../../store/submissions.ts'
import { looksmaxxResult } from './schemas.ts'
import { toLooksmaxxResult } from './to-result.ts'

export const getLooksmaxxStatus = defineOperation({
  id: 'get_looksmaxx_status',
  method: 'GET',
  path: '/api/x402/looksmaxx/{burnTxHash}',
  summary: 'State of a looksmaxx submission: its steps with timestamps, and the result once minted',
  description: 'Look up by either transaction hash of the burn. A client whose POST timed out recovers its NFT here. Once minted, result carries the same signed receipts as the paid answer.',
  tags: ['looksmaxx'],
  input: z.object({ burnTxHash: txHash.describe('burnTxHash or devTxHash of the submission') }),
  output: z.object({
    burnTxHash: z.string(),
    devTxHash: z.string(),
    burner: addressOut,
    source: z.string(),
    status: z.enum(['settling', 'settled', 'generated', 'pinned', 'minted']),
    done: z.boolean(),
    steps: z.array(z.object({ step: z.string(), at: z.string(), detail: z.record(z.string(), z.unknown()).nullable() })),
    retry: z.object({ attempts: z.number().int(), lastError: z.string().nullable(), nextAttemptAt: z.string() }).nullable(),
    result: looksmaxxResult.nullable(),
  }),
  errors: ['NOT_FOUND'],
  uses: ['db', 'pipeline', 'chain', 'receipts'],
  async handler(ctx, { burnTxHash }) {
    const submission = await findSubmissionByTxHash(ctx.db, burnTxHash)
    if (!submission) throw new AppError('NOT_FOUND', `No submission uses transaction ${burnTxHash}.`)
    const steps = await listSteps(ctx.db, submission.id)
    const done = submission.status === 'minted'
    return {
      burnTxHash: submission.burnTxHash,
      devTxHash: submission.devTxHash,
      burner: submission.burner,
      source: submission.source,
      status: submission.status,
      done,
      steps: steps.map((s) => ({ step: s.step, at: s.at.toISOString(), detail: (s.detail as Record<string, unknown> | null) ?? null })),
      retry: done || submission.attempts === 0 ? null : {
        attempts: submission.attempts,
        lastError: submission.lastError,
        nextAttemptAt: submission.nextAttemptAt.toISOString(),
      },
      result: done ? await toLooksmaxxResult(ctx, submission) : null,
    }
  },
})
