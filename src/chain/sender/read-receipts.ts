import type { PublicClient, TransactionReceipt } from 'viem'
import { rpcFailed } from '../upstream-error.ts'

/**
 * The receipts of `hashes` that exist, by hash. Called with a batching client, the lookups
 * travel as one JSON-RPC batch.
 */
export async function readReceipts(client: PublicClient, hashes: `0x${string}`[]): Promise<Map<`0x${string}`, TransactionReceipt>> {
  const found = await Promise.all(
    hashes.map((hash) =>
      client.getTransactionReceipt({ hash }).catch((error: Error) => {
        if (error.name === 'TransactionReceiptNotFoundError') return undefined
        throw rpcFailed('reading a receipt', error)
      }),
    ),
  )
  const receipts = new Map<`0x${string}`, TransactionReceipt>()
  hashes.forEach((hash, i) => found[i] && receipts.set(hash, found[i]))
  return receipts
}
