import type { Chain } from '../clients.ts'
import type { BurnReceipt } from '../verify/verify-burns.ts'
import { rpcFailed } from '../upstream-error.ts'
import { AppError } from '../../errors/app-error.ts'

export type BurnEvidence = {
  burnReceipt: BurnReceipt
  devReceipt: BurnReceipt
  latestBlock: bigint
  blockTimestamps: Map<bigint, bigint>
}

/** Receipts of both burn transactions, their block timestamps and the chain head. */
export async function readBurnEvidence(chain: Chain, burnTxHash: `0x${string}`, devTxHash: `0x${string}`): Promise<BurnEvidence> {
  const hashes = burnTxHash === devTxHash ? [burnTxHash] : [burnTxHash, devTxHash]
  let receipts
  let latestBlock: bigint
  try {
    ;[latestBlock, receipts] = await Promise.all([
      chain.client.getBlockNumber({ cacheTime: 0 }),
      Promise.all(
        hashes.map((hash) =>
          chain.client.getTransactionReceipt({ hash }).catch((error: Error) => {
            if (error.name === 'TransactionReceiptNotFoundError') return null
            throw error
          }),
        ),
      ),
    ])
  } catch (cause) {
    throw rpcFailed('reading the burn transactions', cause)
  }
  receipts.forEach((receipt, i) => {
    if (!receipt) {
      throw new AppError('BURN_VERIFICATION_FAILED', `Transaction ${hashes[i]} was not found on chain ${chain.info.chainId} (not mined yet, or another chain).`, {
        details: { txHash: hashes[i] },
      })
    }
  })
  const found = receipts as NonNullable<(typeof receipts)[number]>[]
  const blockNumbers = [...new Set(found.map((r) => r.blockNumber))]
  let blocks
  try {
    blocks = await Promise.all(blockNumbers.map((blockNumber) => chain.client.getBlock({ blockNumber })))
  } catch (cause) {
    throw rpcFailed('reading the burn blocks', cause)
  }
  const toBurnReceipt = (r: (typeof found)[number]): BurnReceipt => ({
    transactionHash: r.transactionHash,
    status: r.status,
    blockNumber: r.blockNumber,
    logs: r.logs,
  })
  return {
    burnReceipt: toBurnReceipt(found[0]!),
    devReceipt: toBurnReceipt(found[1] ?? found[0]!),
    latestBlock,
    blockTimestamps: new Map(blocks.map((b) => [b.number!, b.timestamp])),
  }
}
