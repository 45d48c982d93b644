import type { Ports } from '../define.ts'
import type { Submission } from '../../store/submissions.ts'
import { receiptsOf } from './receipts-of.ts'

/** The spec's looksmaxx result for a minted submission, with its signed receipts. */
export async function toLooksmaxxResult(ctx: Ports<'pipeline' | 'db' | 'chain' | 'receipts'>, s: Submission) {
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
    receipts: await receiptsOf(ctx, s),
  }
}
