import { getAddress } from 'viem'
import type { Ports } from '../define.ts'
import type { Submission } from '../../store/submissions.ts'
import { findMintedAt } from '../../store/submissions.ts'
import type { PaymentRequirements } from '../../x402/requirements.ts'
import { X402_NETWORK_V2 } from '../../x402/requirements.ts'
import type { Receipts } from '../../receipts/issuer.ts'
import { AppError } from '../../errors/app-error.ts'

/**
 * The receipts of a minted portrait, from its stored facts only: the requirements the payment
 * was offered under, the payer, the settlement, both burns, the token, its CIDs, the mint and
 * the time the mint was recorded. The same submission gives the same receipts wherever and
 * whenever it is read (the POST, the MCP result, the status resource, another instance).
 */
export async function receiptsOf(ctx: Ports<'db' | 'chain' | 'receipts'>, s: Submission): Promise<Receipts> {
  const mintedAt = await findMintedAt(ctx.db, s.id)
  if (s.status !== 'minted' || !mintedAt || s.tokenId === null || !s.mintTxHash || !s.imageCid || !s.metadataCid) {
    throw new AppError('INTERNAL_ERROR', 'internal error', { cause: new Error(`receipts of submission ${s.id}, which is not recorded minted`) })
  }
  const issuedAt = Math.floor(mintedAt.getTime() / 1000)
  const requirements = s.paymentRequirements as PaymentRequirements | null
  const paid = s.paymentFrom && s.settlementTxHash && requirements ? { payer: getAddress(s.paymentFrom), transaction: s.settlementTxHash, requirements } : undefined
  return ctx.receipts.receipts({
    x402: paid && {
      network: X402_NETWORK_V2,
      resourceUrl: paid.requirements.resource,
      payer: paid.payer,
      transaction: paid.transaction,
      issuedAt,
    },
    delivery: {
      source: s.source,
      payment: paid && {
        network: X402_NETWORK_V2,
        transaction: paid.transaction,
        asset: getAddress(paid.requirements.asset),
        amount: BigInt(paid.requirements.maxAmountRequired),
        payer: paid.payer,
        payTo: getAddress(paid.requirements.payTo),
      },
      burn: { burner: getAddress(s.burner), token: ctx.chain.contracts.token, burnTx: s.burnTxHash, devTx: s.devTxHash, amount: s.burnAmountWei },
      delivery: { nft: ctx.chain.contracts.nft, tokenId: s.tokenId, recipient: getAddress(s.burner), imageCid: s.imageCid, metadataCid: s.metadataCid, mintTx: s.mintTxHash },
      issuedAt,
    },
  })
}
