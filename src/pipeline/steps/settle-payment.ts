import { parseAbiItem } from 'viem'
import type { PipelineDeps } from '../deps.ts'
import { markSettleAttempted, type Submission } from '../../store/submissions.ts'
import { eip3009Abi } from '../../chain/abis/eip3009.ts'
import { rpcFailed } from '../../chain/upstream-error.ts'
import type { CompletePaymentPayload } from '../../x402/payload.ts'
import type { PaymentRequirements } from '../../x402/requirements.ts'

export type SettleOutcome =
  | { kind: 'settled'; transaction: `0x${string}` }
  | { kind: 'refused'; reason: string }
  /** Not settled yet, but the authorization may still settle: look again later. */
  | { kind: 'pending' }

const authorizationUsed = parseAbiItem('event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)')

/**
 * What the chain says about the authorization: the only source of truth once a settle call
 * has been attempted. Used → settled (with the transaction that used it); unused and expired →
 * it can never settle; unused and still valid → pending.
 */
export async function reconcilePayment(deps: PipelineDeps, submission: Submission): Promise<SettleOutcome> {
  const from = submission.paymentFrom!
  const nonce = submission.paymentNonce!
  const forwarder = deps.chain.contracts.usdmForwarder
  try {
    const used = await deps.chain.client.readContract({ address: forwarder, abi: eip3009Abi, functionName: 'authorizationState', args: [from, nonce] })
    if (used) {
      const logs = await deps.chain.client.getLogs({
        address: forwarder,
        event: authorizationUsed,
        args: { authorizer: from, nonce },
        fromBlock: submission.claimedBlock,
        toBlock: 'latest',
      })
      const log = logs[0]
      if (!log) return { kind: 'pending' }
      return { kind: 'settled', transaction: log.transactionHash! }
    }
    const block = await deps.chain.client.getBlock({ blockTag: 'latest' })
    if (submission.paymentValidBefore !== null && block.timestamp >= submission.paymentValidBefore) {
      return { kind: 'refused', reason: 'the payment authorization expired before it settled' }
    }
    return { kind: 'pending' }
  } catch (cause) {
    throw rpcFailed('reading the payment authorization state', cause)
  }
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
    result = await deps.facilitator.settle(payment, requirements)
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
