import type { PipelineDeps } from '../deps.ts'
import type { Submission } from '../../store/submissions.ts'
import { buildMetadata } from '../build-metadata.ts'

export async function pinMetadata(deps: PipelineDeps, submission: Submission): Promise<{ metadataCid: string }> {
  const metadata = buildMetadata({
    submission,
    imageCid: submission.imageCid!,
    gatewayUrl: deps.ipfs.gatewayUrl(submission.imageCid!),
    externalUrl: `${deps.baseUrl()}/api/x402/looksmaxx/${submission.burnTxHash}`,
    createdAt: submission.createdAt,
  })
  const bytes = new TextEncoder().encode(JSON.stringify(metadata))
  const { cid } = await deps.ipfs.add(bytes, { name: 'metadata.json', mimeType: 'application/json' })
  return { metadataCid: cid }
}
