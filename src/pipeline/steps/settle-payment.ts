import { isAddressEqual, parseEventLogs } from 'viem'
import { tokenTransferEvent as transfer } from '../../chain/abis/token.ts'
import type { PipelineDeps } from '../deps.ts'
import { markSettleAttempted, type Submission } from '../../store/submissions.ts'
import { authorizationCanceledEvent as authorizationCanceled, authorizationUsedEvent as authorizationUsed, eip3009Abi } from '../../chain/abis/eip3009.ts'
import { rpcFailed } from '../../chain/upstream-error.ts'
import { isPermit2Payment, type CompletePaymentPayload } from '../../x402/payload.ts'
import { reconcilePermit2 } from './reconcile-permit2.ts'
import type { SettleOutcome } from './settle-outcome.ts'
import type { PaymentRequirements } from '../../x402/requirements.ts'

export type { SettleOutcome } from './settle-outcome.ts'

/**
 * What the chain says about the payment: the only source of truth once a settle call has been
 * attempted. A Permit2 payment is read from Permit2's nonce bitmap and the proxy's transfer
 * (reconcile-permit2.ts); an EIP-3009 one from the forwarder:
 * - used by a transferWithAuthorization whose transaction moved the USDm to payTo → settled;
 * - used without that transfer (cancelled by the payer with cancelAuthorization, or any other
 *   use) → it can never pay us: refused at once, the claim is released;
 * - unused and expired (validBefore reached) → it can never settle: refused;
 * - otherwise → pending, but never past validBefore: a "used" state whose event cannot be
 *   found yet is given up once the authorization has expired.
 */
export async function reconcilePayment(deps: PipelineDeps, submission: Submission): Promise<SettleOutcome> {
  const payment = submission.paymentPayload as CompletePaymentPayload
  if (isPermit2Payment(payment)) {
    try {
      return await reconcilePermit2(deps, submission, payment, submission.paymentRequirements as PaymentRequirements)
    } catch (cause) {
      throw rpcFailed('reading the Permit2 payment state', cause)
    }
  }
  return reconcileEip3009(deps, submission)
}

/** The EIP-3009 (forwarder) side of reconcilePayment, by authorizationState and AuthorizationUsed. */
async function reconcileEip3009(deps: PipelineDeps, submission: Submission): Promise<SettleOutcome> {
  const from = submission.paymentFrom!
  const nonce = submission.paymentNonce!
  const forwarder = deps.chain.contracts.usdmForwarder
  const requirements = submission.paymentRequirements as PaymentRequirements | null
  try {
    const used = await deps.chain.client.readContract({ address: forwarder, abi: eip3009Abi, functionName: 'authorizationState', args: [from, nonce] })
    if (used) {
      const range = { address: forwarder, args: { authorizer: from, nonce }, fromBlock: submission.claimedBlock, toBlock: 'latest' as const }
      const [usedLogs, canceledLogs] = await Promise.all([
        deps.chain.client.getLogs({ ...range, event: authorizationUsed }),
        deps.chain.client.getLogs({ ...range, event: authorizationCanceled }),
      ])
      const log = usedLogs[0]
      if (log) {
        if (!requirements || (await paidTo(deps, log.transactionHash!, from, requirements))) return { kind: 'settled', transaction: log.transactionHash! }
        return { kind: 'refused', reason: 'the payment authorization was used without transferring the fee to the facilitator' }
      }
      if (canceledLogs[0]) return { kind: 'refused', reason: 'the payer cancelled the payment authorization (cancelAuthorization)' }
    }
    const block = await deps.chain.client.getBlock({ blockTag: 'latest' })
    if (submission.paymentValidBefore !== null && block.timestamp >= submission.paymentValidBefore) {
      return { kind: 'refused', reason: used ? 'the payment authorization was used without a settlement of ours' : 'the payment authorization expired before it settled' }
    }
    return { kind: 'pending' }
  } catch (cause) {
    throw rpcFailed('reading the payment authorization state', cause)
  }
}

/** Whether the transaction that used the authorization moved the fee from the payer to payTo. */
async function paidTo(deps: PipelineDeps, txHash: `0x${string}`, from: `0x${string}`, requirements: PaymentRequirements): Promise<boolean> {
  const receipt = await deps.chain.client.getTransactionReceipt({ hash: txHash })
  if (receipt.status !== 'success') return false
  const logs = parseEventLogs({ abi: [transfer], logs: receipt.logs, eventName: 'Transfer' })
  return logs.some(
    (l) =>
      isAddressEqual(l.address, deps.chain.contracts.usdm) &&
      isAddressEqual(l.args.from, from) &&
      isAddressEqual(l.args.to, requirements.payTo as `0x${string}`) &&
      l.args.value >= BigInt(requirements.maxAmountRequired),
  )
}

/**
 * Settles the submission's payment at most once. The "settle attempted" mark is stored
 * before the facilitator is called: without it nothing was ever sent (a crash before the
 * call), so settling now is safe; with it, the outcome is read on chain, never sent again.
 * A verdict from the facilitator decides; an unknown outcome (timeout, 5xx) is resolved by
 * reading the chain.
 */
export async function settlePayment(deps: PipelineDeps, submission: Submission): Promise<SettleOutcome> {
  if (submission.settleAttemptedAt) return reconcilePayment(deps, submission)
  // Only the caller that sets the mark may call settle; anyone else reads the chain.
  if (!(await markSettleAttempted(deps.db, submission.id))) return reconcilePayment(deps, submission)
  const payment = submission.paymentPayload as CompletePaymentPayload
  const requirements = submission.paymentRequirements as PaymentRequirements
  let result
  try {
    result = await deps.facilitator.settle(payment, requirements, { checked: deps.checked?.get(submission.burnTxHash) })
  } catch (error) {
    deps.log.warn({ err: error, submission: submission.id }, 'settlement outcome unknown; reading the chain')
    return reconcilePayment(deps, submission)
  }
  if (result.success) return { kind: 'settled', transaction: result.transaction }
  // A refusal right after our own earlier attempt may hide a settlement that landed.
  const onChain = await reconcilePayment(deps, submission)
  if (onChain.kind === 'settled') return onChain
  return { kind: 'refused', reason: result.errorReason }
}
