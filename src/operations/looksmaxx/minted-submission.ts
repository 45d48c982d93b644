import type { Ports } from '../define.ts'
import { AppError } from '../../errors/app-error.ts'
import { findSubmissionByTxHash, type Submission } from '../../store/submissions.ts'
import { statusUrl } from '../../pipeline/submit-portrait.ts'

/** The minted submission of a burn (either hash), or 404 NOT_FOUND / 409 NOT_MINTED. */
export async function mintedSubmission(ctx: Ports<'db' | 'baseUrl'>, burnTxHash: string): Promise<Submission> {
  const submission = await findSubmissionByTxHash(ctx.db, burnTxHash)
  if (!submission) throw new AppError('NOT_FOUND', `No submission uses transaction ${burnTxHash}.`)
  if (submission.status !== 'minted') {
    throw new AppError('NOT_MINTED', `The submission of ${burnTxHash} is ${submission.status}, not minted yet: its receipts exist once it is. Follow the status link.`, {
      details: { status: submission.status, statusUrl: statusUrl(ctx, submission.burnTxHash) },
    })
  }
  return submission
}
