import type { Context } from '../context.ts'
import { indexedBlock } from '../store/ops-stats.ts'

export type IndexerLag = {
  head: bigint
  /** The last block the indexer applied; undefined before its first pass. */
  indexed?: bigint
  /** Blocks the indexer is behind the confirmed head (head minus CONFIRMATIONS); undefined before its first pass. */
  lag?: bigint
}

/** How far behind the chain the indexer is, from the chain head and the shared cursor. */
export async function readIndexerLag(ctx: Context): Promise<IndexerLag> {
  const [head, indexed] = await Promise.all([ctx.chain.client.getBlockNumber({ cacheTime: 0 }), indexedBlock(ctx.db)])
  if (indexed === undefined) return { head }
  const confirmed = head - BigInt(ctx.config.CONFIRMATIONS)
  return { head, indexed, lag: confirmed > indexed ? confirmed - indexed : 0n }
}
