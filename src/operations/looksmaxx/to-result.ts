import type { Ports } from '../define.ts'
import type { Submission } from '../../store/submissions.ts'

/** The spec's looksmaxx result for a minted submission. */
export function toLooksmaxxResult(ctx: Ports<'pipeline'>, s: Submission) {
  const ipfsUrl = ctx.pipeline.deps.ipfs.gatewayUrl(s.imageCid!)
  return {
    success: true as const,
    source: s.source,
    imageUrl: ipfsUrl,
    ipfsCid: s.imageCid!,
    ipfsUrl,
    tokenId: s.tokenId === null ? null : s.tokenId.toString(),
    burnTxHash: s.burnTxHash,
    devTxHash: s.devTxHash,
    metadataCid: s.metadataCid ?? undefined,
    mintTxHash: s.mintTxHash ?? undefined,
    settlementTxHash: s.settlementTxHash ?? undefined,
  }
}
