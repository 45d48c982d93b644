import type { PipelineDeps } from './deps.ts'
import { type Submission, recordStep, releaseSubmission, scheduleRetry, getSubmission, renewLease, releaseLease } from '../store/submissions.ts'
import { insertPortrait } from '../store/portraits.ts'
import { AppError, isAppError } from '../errors/app-error.ts'
import { settlePayment } from './steps/settle-payment.ts'
import { generatePortrait } from './steps/generate-portrait.ts'
import { pinMetadata } from './steps/pin-metadata.ts'
import { mintPortrait } from './steps/mint-portrait.ts'
import { insertEvent } from '../store/events.ts'
import { burnEventKey, burnEventOfPortrait } from '../events/burn-event.ts'
import { getPortraitTotals } from '../store/portraits.ts'

/** The payment was refused: the claim is released and nothing was consumed (the answer an operation gives for a `refused` outcome). */
export class PaymentRefusedError extends AppError {
  constructor(reason: string) {
    super('PAYMENT_REQUIRED', `The payment did not settle: ${reason}. Your burns were not consumed; submit again with a valid payment.`, {
      details: { reason },
    })
  }
}

/**
 * Carries a submission from its current state to a minted NFT, one step at a time. Each
 * step's result is committed before the next step starts; settlement is the pivot: before
 * it a refusal releases the claim, after it the only way is forward.
 */
export async function advanceSubmission(deps: PipelineDeps, start: Submission): Promise<{ kind: 'minted'; submission: Submission } | { kind: 'refused'; reason: string }> {
  let submission = start
  try {
    while (submission.status !== 'minted') {
      switch (submission.status) {
        case 'settling': {
          deps.fault('before_settlement')
          const outcome = await settlePayment(deps, submission)
          if (outcome.kind === 'refused') {
            await releaseSubmission(deps.db, submission.id)
            deps.log.info({ submission: submission.id, reason: outcome.reason }, 'payment refused; claim released')
            // An expected outcome, returned as a value: the caller decides what the user sees.
            return { kind: 'refused', reason: outcome.reason }
          }
          if (outcome.kind === 'pending') {
            throw new AppError('UPSTREAM_FAILED', 'The payment has not settled yet.', { retryable: true })
          }
          submission = await recordStep(deps.db, submission.id, 'settled', { status: 'settled', settlementTxHash: outcome.transaction }, { transaction: outcome.transaction })
          deps.log.info({ submission: submission.id, burnTxHash: submission.burnTxHash, step: 'settled', transaction: outcome.transaction }, 'looksmaxx: payment settled')
          deps.fault('after_settlement')
          break
        }
        case 'settled': {
          // Generation may have started when the claim was won (it overlaps settlement); the
          // image is pinned only now, after the settlement is recorded.
          const { imageCid, faceFound } = await generatePortrait(deps, submission)
          submission = await recordStep(deps.db, submission.id, 'generated', { status: 'generated', imageCid }, { imageCid, faceFound })
          deps.log.info({ submission: submission.id, burnTxHash: submission.burnTxHash, step: 'generated', imageCid, faceFound }, 'looksmaxx: portrait generated and pinned')
          break
        }
        case 'generated': {
          const { metadataCid } = await pinMetadata(deps, submission)
          submission = await recordStep(deps.db, submission.id, 'pinned', { status: 'pinned', metadataCid }, { metadataCid })
          deps.log.info({ submission: submission.id, burnTxHash: submission.burnTxHash, step: 'pinned', metadataCid }, 'looksmaxx: metadata pinned')
          break
        }
        case 'pinned': {
          const { tokenId, mintTxHash, blockNumber } = await mintPortrait(deps, submission)
          const current = submission
          // The burn and stats events are stored in the transaction that records the mint (an
          // outbox): a crash after it cannot lose them; they are fanned out once committed.
          const recorded = await deps.db.transaction(async (tx) => {
            const portrait = await insertPortrait(tx, {
              tokenId,
              burner: current.burner,
              burnTxHash: current.burnTxHash,
              devTxHash: current.devTxHash,
              burnAmountWei: current.burnAmountWei,
              deadAmountWei: current.deadAmountWei,
              imageCid: current.imageCid!,
              metadataCid: current.metadataCid!,
              mintTxHash,
              source: current.source,
            })
            const minted = await recordStep(tx, current.id, 'minted', { status: 'minted', tokenId, mintTxHash }, { tokenId: tokenId.toString(), mintTxHash })
            const burn = burnEventOfPortrait({ ...current, imageCid: current.imageCid!, tokenId, mintedAt: new Date() }, deps.ipfs.gatewayUrl)
            const events = [
              await insertEvent(tx, 'burn', burn, burnEventKey(tokenId)),
              await insertEvent(tx, 'stats', { totalBurns: (await getPortraitTotals(tx)).portraits }),
            ]
            return { minted, events, portrait }
          })
          submission = recorded.minted
          deps.log.info({ submission: submission.id, burnTxHash: submission.burnTxHash, step: 'minted', tokenId: tokenId.toString(), mintTxHash, to: submission.burner }, `looksmaxx: NFT #${tokenId} minted to ${submission.burner}`)
          // Recorded by this run (not before a crash, nor by another worker): the read models
          // take its rows as they are, instead of reading them back.
          if (recorded.portrait) deps.portraits.recorded(recorded.portrait)
          // Reads renew what the mint changed (gallery, boards, stats, balances) on every
          // instance, before the stream or the waiting request hears of it.
          await deps.fresh.changed(['portraits', 'token'], blockNumber)
          for (const event of recorded.events) {
            if (event) await deps.bus.publish(event).catch((error) => deps.log.warn({ err: error }, 'could not fan out an event'))
          }
          break
        }
      }
    }
    return { kind: 'minted', submission }
  } finally {
    deps.early.delete(start.burnTxHash)
    deps.checked?.delete(start.burnTxHash)
  }
}

export function backoffMs(attempts: number, retry: PipelineDeps['retry']): number {
  const exponential = Math.min(retry.maxMs, retry.baseMs * 2 ** Math.min(attempts, 20))
  return exponential / 2 + Math.random() * (exponential / 2)
}

export type RunResult =
  | { outcome: 'minted'; submission: Submission }
  | { outcome: 'refused'; reason: string }
  | { outcome: 'retrying'; error: unknown; retryable: boolean }

/**
 * One run of the saga for a leased submission. A refused payment is an outcome (the claim is
 * released; the caller answers 402). Any failure is scheduled for a retry with backoff: after
 * settlement nothing is ever dropped. The error's `retryable` says whether the retry is
 * expected to help (an RPC or provider hiccup) or the failure needs an operator (a bug, a
 * permanent refusal): the latter is logged as an error, and the submission stays scheduled.
 */
export async function runSubmission(deps: PipelineDeps, submission: Submission, owner: string): Promise<RunResult> {
  // Keep the lease while working, so only a dead holder's submissions are taken over.
  const heartbeat = setInterval(() => {
    renewLease(deps.db, submission.id, owner, deps.leaseMs).catch((error) => deps.log.warn({ err: error }, 'could not renew a lease'))
  }, Math.max(250, deps.leaseMs / 3))
  try {
    const result = await advanceSubmission(deps, submission)
    if (result.kind === 'refused') return { outcome: 'refused', reason: result.reason }
    await releaseLease(deps.db, submission.id, owner)
    return { outcome: 'minted', submission: result.submission }
  } catch (error) {
    const latest = (await getSubmission(deps.db, submission.id)) ?? submission
    const delay = backoffMs(latest.attempts, deps.retry)
    const message = isAppError(error) ? `${error.code}: ${error.message}` : 'internal error'
    const retryable = isAppError(error) && error.retryable === true
    const fields = { err: error, submission: submission.id, status: latest.status, retryInMs: Math.round(delay), retryable }
    if (retryable) deps.log.warn(fields, 'step failed; will retry')
    else deps.log.error(fields, 'step failed with an error a retry is not expected to fix; kept scheduled, needs attention')
    await scheduleRetry(deps.db, submission.id, message, delay)
    return { outcome: 'retrying', error, retryable }
  } finally {
    clearInterval(heartbeat)
  }
}
