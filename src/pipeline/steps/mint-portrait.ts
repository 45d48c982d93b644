import { decodeEventLog, isAddressEqual } from 'viem'
import { portraitNftAbi as nftAbi } from '../../chain/abis/portrait-nft.ts'
import { buildMintPortrait } from '../../chain/builders/build-mint-portrait.ts'
import type { PipelineDeps } from '../deps.ts'
import type { Submission } from '../../store/submissions.ts'
import { AppError } from '../../errors/app-error.ts'
import { isTxDropped } from '../../chain/sender/tx-sender.ts'

const mintKey = (id: string, attempt: number) => (attempt === 1 ? `mint:${id}` : `mint:${id}#${attempt}`)

/**
 * Mints the portrait NFT to the burner. The signed transaction is stored before broadcast
 * under the submission's key, so a retry looks it up instead of minting twice.
 */
export async function mintPortrait(deps: PipelineDeps, submission: Submission): Promise<{ tokenId: bigint; mintTxHash: `0x${string}`; blockNumber: bigint }> {
  const nft = deps.chain.contracts.nft
  const data = buildMintPortrait({ to: submission.burner, metadataCid: submission.metadataCid! })
  // A reverted mint is final for its transaction; the next attempt is a new transaction. So is
  // a dropped one (another transaction of the minter key used its nonce; the sender decides
  // that only once the nonce is used on chain and no version of it has a receipt): it never
  // executed, so minting again under the next key cannot mint twice.
  const finished = (status: string | undefined) => status === 'reverted' || status === 'dropped'
  let attempt = 1
  while (finished((await deps.minter.find(mintKey(submission.id, attempt)))?.status)) attempt++
  let mined
  for (;;) {
    try {
      mined = await deps.minter.sendAndWait(
        { key: mintKey(submission.id, attempt), to: nft, data },
        { timeoutMs: 60_000, onBroadcast: () => deps.fault('after_mint_broadcast') },
      )
      break
    } catch (error) {
      // Dropped while this request waited: the stored row says so now; mint again at once.
      if (!isTxDropped(error)) throw error
      deps.log.warn({ submission: submission.id, attempt, txHash: error.txHash }, 'mint transaction dropped (its nonce was used by another transaction); minting again')
      attempt++
    }
  }
  if (mined.status !== 'mined') {
    throw new AppError('UPSTREAM_FAILED', `The mint transaction ${mined.txHash} reverted.`, { retryable: true })
  }
  for (const log of mined.receipt.logs) {
    if (!isAddressEqual(log.address, nft) || log.topics.length !== 4) continue
    const { args } = decodeEventLog({ abi: nftAbi, eventName: 'Transfer', data: log.data, topics: log.topics as [`0x${string}`, ...`0x${string}`[]] })
    if (isAddressEqual(args.to, submission.burner)) return { tokenId: args.tokenId, mintTxHash: mined.txHash, blockNumber: mined.receipt.blockNumber }
  }
  throw new AppError('INTERNAL_ERROR', 'internal error', { cause: new Error(`mint ${mined.txHash} has no Transfer to the burner`) })
}
