import type { PipelineDeps } from '../deps.ts'
import type { Submission } from '../../store/submissions.ts'
import { getSubmissionInput } from '../../store/submissions.ts'
import { AppError } from '../../errors/app-error.ts'

async function generateFromStoredInput(deps: PipelineDeps, submission: Submission) {
  const input = await getSubmissionInput(deps.db, submission.id)
  if (!input) throw new AppError('INTERNAL_ERROR', 'internal error', { cause: new Error(`no stored input for ${submission.id}`) })
  return deps.images.generate({
    image: input.image,
    mimeType: input.mimeType as 'image/jpeg' | 'image/png' | 'image/webp',
    seed: submission.burnTxHash,
  })
}

/**
 * Generates the enhanced portrait and pins it. Generation is seeded by the burn hash, so a
 * retry after a crash produces (and pins) the same bytes under the same CID.
 */
export async function generatePortrait(deps: PipelineDeps, submission: Submission): Promise<{ imageCid: string; faceFound?: boolean }> {
  const early = deps.early.get(submission.burnTxHash)
  deps.early.delete(submission.burnTxHash)
  const generated = (early && (await early.catch(() => undefined))) ?? (await generateFromStoredInput(deps, submission))
  const { cid } = await deps.ipfs.add(generated.image, { name: `${submission.burnTxHash}.png`, mimeType: 'image/png' })
  return { imageCid: cid, faceFound: generated.faceFound }
}
