import { decodeFunctionData, getAddress, isAddressEqual, parseEventLogs } from 'viem'
import { tokenTransferEvent as transfer } from '../../chain/abis/token.ts'
import { permit2Abi, unorderedNonceInvalidationEvent, x402ExactPermit2ProxyAbi } from '../../chain/abis/permit2.ts'
import { PERMIT2_ADDRESS, X402_EXACT_PERMIT2_PROXY } from '../../chain/constants.ts'
import type { PipelineDeps } from '../deps.ts'
import type { Submission } from '../../store/submissions.ts'
import type { Permit2Payment } from '../../x402/payload.ts'
import type { PaymentRequirements } from '../../x402/requirements.ts'
import type { SettleOutcome } from './settle-outcome.ts'

/**
 * What the chain says about a Permit2 payment, once a settle call has been attempted:
 * - its nonce is spent in Permit2's bitmap, and a transaction of the x402 exact proxy that
 *   carries this very permit (owner, nonce, token, payee) moved the fee to payTo → settled;
 * - the payer invalidated the nonce itself (invalidateUnorderedNonces) → it can never pay us;
 * - unspent, or spent without our settlement, past the deadline → refused (Permit2 accepts a
 *   permit while block.timestamp ≤ deadline);
 * - otherwise → pending.
 */
export async function reconcilePermit2(deps: PipelineDeps, submission: Submission, payment: Permit2Payment, requirements: PaymentRequirements): Promise<SettleOutcome> {
  const auth = payment.payload.permit2Authorization
  const owner = getAddress(auth.from)
  const nonce = BigInt(auth.nonce)
  const client = deps.chain.client
  const word = await client.readContract({ address: PERMIT2_ADDRESS, abi: permit2Abi, functionName: 'nonceBitmap', args: [owner, nonce >> 8n] })
  const spent = ((word >> (nonce & 0xffn)) & 1n) === 1n
  if (spent) {
    const settlement = await findPermit2Settlement(deps, submission, payment, requirements)
    if (settlement) return { kind: 'settled', transaction: settlement }
    const invalidations = await client.getLogs({ address: PERMIT2_ADDRESS, event: unorderedNonceInvalidationEvent, args: { owner }, fromBlock: submission.claimedBlock, toBlock: 'latest' })
    if (invalidations.some((log) => log.args.word === nonce >> 8n && ((log.args.mask! >> (nonce & 0xffn)) & 1n) === 1n)) {
      return { kind: 'refused', reason: 'the payer invalidated the Permit2 nonce of the payment (invalidateUnorderedNonces)' }
    }
  }
  const block = await client.getBlock({ blockTag: 'latest' })
  if (block.timestamp > BigInt(auth.deadline)) {
    return { kind: 'refused', reason: spent ? 'the Permit2 nonce of the payment was spent without a settlement of ours' : 'the Permit2 payment expired before it settled' }
  }
  return { kind: 'pending' }
}

/**
 * The transaction that settled this permit: among the USDm transfers from the payer to payTo
 * since the claim, one sent to the x402 exact proxy whose calldata names this owner and nonce
 * (a Permit2 nonce pays once, so at most one can), and that moved the full amount.
 */
async function findPermit2Settlement(deps: PipelineDeps, submission: Submission, payment: Permit2Payment, requirements: PaymentRequirements): Promise<`0x${string}` | undefined> {
  const auth = payment.payload.permit2Authorization
  const client = deps.chain.client
  const logs = await client.getLogs({
    address: auth.permitted.token as `0x${string}`,
    event: transfer,
    args: { from: auth.from as `0x${string}`, to: requirements.payTo as `0x${string}` },
    fromBlock: submission.claimedBlock,
    toBlock: 'latest',
  })
  for (const hash of new Set(logs.map((log) => log.transactionHash!))) {
    const tx = await client.getTransaction({ hash })
    if (!tx.to || !isAddressEqual(tx.to, X402_EXACT_PERMIT2_PROXY)) continue
    let decoded
    try {
      decoded = decodeFunctionData({ abi: x402ExactPermit2ProxyAbi, data: tx.input })
    } catch {
      continue
    }
    const args = decoded.args as readonly unknown[]
    const [permit, owner] = (decoded.functionName === 'settleWithPermit' ? args.slice(1) : args) as [{ permitted: { token: `0x${string}` }; nonce: bigint }, `0x${string}`]
    if (!isAddressEqual(owner, auth.from as `0x${string}`) || permit.nonce !== BigInt(auth.nonce) || !isAddressEqual(permit.permitted.token, auth.permitted.token as `0x${string}`)) continue
    const receipt = await client.getTransactionReceipt({ hash })
    if (receipt.status !== 'success') continue
    const paid = parseEventLogs({ abi: [transfer], logs: receipt.logs, eventName: 'Transfer' }).some(
      (l) =>
        isAddressEqual(l.address, auth.permitted.token as `0x${string}`) &&
        isAddressEqual(l.args.from, auth.from as `0x${string}`) &&
        isAddressEqual(l.args.to, requirements.payTo as `0x${string}`) &&
        l.args.value >= BigInt(requirements.maxAmountRequired),
    )
    if (paid) return hash
  }
  return undefined
}
