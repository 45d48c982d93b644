import type { Config } from '../config/load.ts'
import type { Chain } from '../chain/clients.ts'
import type { Db } from '../store/db.ts'
import type { Worker } from './worker.ts'
import type { PipelineDeps } from './deps.ts'
import { AppError } from '../errors/app-error.ts'
import { decodePortrait, inspectPortrait } from './parse-portrait.ts'
import { imageHashOf, verifyBurnerProof } from '../chain/verify/burner-authorization.ts'
import { simulateSettlement } from '../x402/settlement-call.ts'
import { readBurnEvidence } from '../chain/reads/read-burn-evidence.ts'
import { verifyBurns } from '../chain/verify/verify-burns.ts'
import { claimSubmission, findSubmissionByTxHash, getSubmission, type Submission } from '../store/submissions.ts'
import { runSubmission, PaymentRefusedError } from './saga.ts'
import { payerOf, paymentTerms, transferMethodOfPayment, type CompletePaymentPayload } from '../x402/payload.ts'
import { buildPaymentOffers, offerFor, type PaymentRequirements } from '../x402/requirements.ts'
import { maxValidBefore } from '../x402/verify-payment.ts'

/** What submitting a portrait uses of the service's Context (pipeline/ sits below context.ts). */
export type PortraitContext = {
  config: Config
  chain: Chain
  db: Db
  pipeline: { deps: PipelineDeps; facilitator: PipelineDeps['facilitator']; worker: Worker; owner: string; leaseMs: number }
  baseUrl(): string
  /** The time the checks of a request are made at (ms); waits use real time. */
  clock(): number
}

export type PortraitRequest = {
  source: Submission['source']
  burnTxHash: `0x${string}`
  devTxHash: `0x${string}`
  burner: `0x${string}`
  image: string
  imageType?: string
  payment?: CompletePaymentPayload
  /** The paid resource the payment was offered for (stored with it; its receipt names it). Default: the HTTP route. */
  resource?: string
  /** EIP-712 RedeemBurn by the burner: required without a payment, or when the payer is not the burner. */
  burnerSignature?: `0x${string}`
  burnerDeadline?: number
}

export function statusUrl(ctx: Pick<PortraitContext, 'baseUrl'>, burnTxHash: string): string {
  return `${ctx.baseUrl()}/api/x402/looksmaxx/${burnTxHash}`
}

/** The looksmaxx resource as a client calls it over HTTP (an MCP call names the MCP endpoint instead). */
const httpResource = (ctx: Pick<PortraitContext, 'baseUrl'>) => `${ctx.baseUrl()}/api/x402/looksmaxx`

/**
 * Every way to pay the looksmaxx fee, in the order the 402 lists them: the USDm forwarder
 * (EIP-3009), then Permit2; for the resource the client calls (default: the HTTP route).
 */
export function looksmaxxOffers(ctx: Pick<PortraitContext, 'chain' | 'baseUrl'>, resource = httpResource(ctx)): PaymentRequirements[] {
  return buildPaymentOffers({
    resource,
    payTo: ctx.chain.facilitator,
    forwarder: ctx.chain.contracts.usdmForwarder,
    usdm: ctx.chain.contracts.usdm,
  })
}

/** The forwarder option (accepts[0]): what the plan, the agent card and v1 clients sign. */
export function looksmaxxRequirements(ctx: Pick<PortraitContext, 'chain' | 'baseUrl'>, resource?: string): PaymentRequirements {
  return looksmaxxOffers(ctx, resource)[0]!
}

/** The option a payment pays, by the way it moves the token, for the resource the client called. */
export function looksmaxxRequirementsFor(ctx: Pick<PortraitContext, 'chain' | 'baseUrl'>, payment: CompletePaymentPayload, resource?: string): PaymentRequirements {
  return offerFor(looksmaxxOffers(ctx, resource), transferMethodOfPayment(payment))
}

function alreadyUsed(ctx: PortraitContext, existing: Submission, txHash: string): AppError {
  return new AppError('BURN_ALREADY_USED', `Burn transaction ${txHash} was already submitted; see its status link.`, {
    details: { burnTxHash: existing.burnTxHash, status: existing.status, statusUrl: statusUrl(ctx, existing.burnTxHash) },
  })
}

/**
 * The looksmaxx saga's entry: everything that can refuse the request (input, burns, replay,
 * payment) happens before anything is consumed; after settlement the submission is owed
 * until it is minted. Resolves with the minted submission, or throws the refusal.
 */
export async function submitPortrait(ctx: PortraitContext, request: PortraitRequest): Promise<Submission> {
  const { pipeline } = ctx

  // Cheap early answer for a replay; the unique claim below stays the decider under races.
  const hashes = [...new Set([request.burnTxHash, request.devTxHash])]
  const found = await Promise.all(hashes.map((hash) => findSubmissionByTxHash(ctx.db, hash)))
  for (const [i, existing] of found.entries()) if (existing) throw alreadyUsed(ctx, existing, hashes[i]!)

  // Cheap checks first, in the order a user fixes them, none of which decodes a pixel or
  // reads the chain: the image header, the payment's own fields, the burner's consent.
  const header = inspectPortrait(request.image, request.imageType)
  const requirements = request.payment ? looksmaxxRequirementsFor(ctx, request.payment, request.resource) : undefined
  const nowSeconds = Math.floor(ctx.clock() / 1000)
  if (request.payment && requirements) refuseLongLivedPayment(request.payment, requirements, nowSeconds)
  const proof = await verifyBurnerProof({
    nft: ctx.chain.contracts.nft,
    message: {
      burner: request.burner,
      burnTxHash: request.burnTxHash,
      devTxHash: request.devTxHash,
      imageHash: () => imageHashOf(header.bytes),
      payer: request.payment ? payerOf(request.payment) : undefined,
    },
    signature: request.burnerSignature,
    deadline: request.burnerDeadline,
    nowSeconds,
  })
  if (!proof.ok) throw new AppError(proof.code, proof.message, { details: { field: 'burnerSignature', burner: request.burner } })

  // Then the chain, together: the payment (the facilitator's verify and our own simulation of
  // the settlement, so a payment the forwarder would revert is refused before any claim) and
  // the burns.
  const checkedAt = Date.now()
  const [verdict, simulation, evidence] = await Promise.allSettled([
    request.payment && requirements ? pipeline.facilitator.verify(request.payment, requirements) : Promise.resolve(undefined),
    request.payment && requirements
      ? simulateSettlement(ctx.chain, request.payment, requirements, ctx.chain.facilitator)
      : Promise.resolve(undefined),
    readBurnEvidence(ctx.chain, request.burnTxHash, request.devTxHash),
  ])
  if (verdict.status === 'rejected') throw verdict.reason
  if (verdict.value && !verdict.value.isValid) {
    throw new AppError('PAYMENT_REQUIRED', `The payment is not valid: ${verdict.value.invalidReason}. Nothing was consumed.`, {
      details: { reason: verdict.value.invalidReason },
    })
  }
  if (simulation.status === 'rejected') throw simulation.reason
  if (simulation.value && !simulation.value.ok) {
    throw new AppError('PAYMENT_REQUIRED', `The payment would not settle: the settlement reverts with "${simulation.value.reason}". Sign a new one; nothing was consumed.`, {
      details: { reason: 'settlement_reverted', revert: simulation.value.reason },
    })
  }
  if (evidence.status === 'rejected') throw evidence.reason
  const check = verifyBurns({
    ...evidence.value,
    burner: request.burner,
    token: ctx.chain.contracts.token,
    fundWallet: ctx.chain.fundWallet,
    referralContract: ctx.chain.contracts.referral,
    confirmations: ctx.config.CONFIRMATIONS,
    maxAgeSeconds: ctx.config.BURN_MAX_AGE_SECONDS,
    nowSeconds: BigInt(nowSeconds),
  })
  if (!check.ok) throw new AppError('BURN_VERIFICATION_FAILED', check.reason, { details: { burnTxHash: request.burnTxHash, devTxHash: request.devTxHash } })

  // Only a request with good burns and a good payment pays for the full decode, one at a time.
  const portrait = await decodePortrait(header)

  const terms = request.payment ? paymentTerms(request.payment) : undefined
  const claim = await claimSubmission(ctx.db, {
    source: request.source,
    burnTxHash: request.burnTxHash,
    devTxHash: request.devTxHash,
    burner: request.burner,
    burnAmountWei: check.burned + check.funded + check.referralReward,
    deadAmountWei: check.burned,
    referrer: check.referrer,
    payment:
      request.payment && terms && requirements
        ? {
            from: terms.from,
            nonce: terms.nonce,
            validBefore: terms.validBefore,
            payload: request.payment,
            requirements,
          }
        : undefined,
    claimedBlock: evidence.value.latestBlock,
    image: { bytes: portrait.bytes, mimeType: portrait.mimeType },
    leaseOwner: pipeline.owner,
    leaseMs: pipeline.leaseMs,
  })
  if (!claim.claimed) {
    if (claim.existing) throw alreadyUsed(ctx, claim.existing, request.burnTxHash)
    throw new AppError('PAYMENT_REQUIRED', 'This payment authorization already paid for another portrait. Sign a new one.', {
      details: { reason: 'invalid_exact_evm_nonce_already_used' },
    })
  }

  // This request won the claim: start the portrait now, so generation overlaps settlement.
  // Losers of a race and refused requests never get here, so they cost no generation; the
  // image is pinned only after the settlement is recorded (saga, step 'settled').
  const early = pipeline.deps.images.generate({ image: portrait.bytes, mimeType: portrait.mimeType, seed: request.burnTxHash })
  early.catch(() => {})
  pipeline.deps.early.set(request.burnTxHash, early)
  // Verified and simulated just now (the time the chain was read): the settlement need not repeat it.
  if (request.payment) pipeline.deps.checked?.set(request.burnTxHash, { atMs: checkedAt, simulatedFrom: ctx.chain.facilitator })

  // The POST waits LOOKSMAXX_WAIT_SECONDS in all, the run's own steps included: a step that
  // hangs (a facilitator or a receipt that does not come) does not hold the answer. The run goes
  // on under its lease after the answer, and a worker takes it over if this process dies.
  const deadline = Date.now() + ctx.config.LOOKSMAXX_WAIT_SECONDS * 1000
  const run = runSubmission(pipeline.deps, claim.submission, pipeline.owner)
  run.catch((error) => pipeline.deps.log.error({ err: error, submission: claim.submission.id }, 'a submission run failed outside its steps'))
  let timer: ReturnType<typeof setTimeout> | undefined
  const result = await Promise.race([run, new Promise<'waited'>((resolve) => (timer = setTimeout(() => resolve('waited'), deadline - Date.now())))])
  clearTimeout(timer)
  if (result === 'waited') return waitUntilMinted(ctx, claim.submission, deadline)
  if (result.outcome === 'minted') return result.submission
  if (result.outcome === 'refused') throw new PaymentRefusedError(result.reason)
  return waitUntilMinted(ctx, claim.submission, deadline)
}

/**
 * A payment whose validBefore lies further ahead than maxTimeoutSeconds is refused before
 * anything is claimed, whatever facilitator is configured: an unknown settlement outcome
 * keeps the burns locked until validBefore, so that lock stays short.
 */
function refuseLongLivedPayment(payment: CompletePaymentPayload, requirements: PaymentRequirements, nowSeconds: number) {
  const limit = maxValidBefore(requirements, BigInt(nowSeconds))
  const terms = paymentTerms(payment)
  if (terms.validBefore <= limit) return
  const [reason, field] = terms.method === 'permit2' ? ['permit2_deadline_too_far', 'deadline'] : ['invalid_exact_evm_payload_authorization_valid_before', 'validBefore']
  throw new AppError(
    'PAYMENT_REQUIRED',
    `The payment is not valid: ${reason} (${field} may be at most ${requirements.maxTimeoutSeconds} seconds from now, so a payment cannot lock the burns for long). Sign a new one; nothing was consumed.`,
    { details: { reason, maxValidBefore: limit.toString() } },
  )
}

/** Waits until `deadline` (real time, not the clock port: a wait must end whatever a test's clock says). */
async function waitUntilMinted(ctx: PortraitContext, submission: Submission, deadline: number): Promise<Submission> {
  ctx.pipeline.worker.poke()
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200))
    const latest = await getSubmission(ctx.db, submission.id)
    if (!latest) throw new PaymentRefusedError('the payment authorization expired before it settled')
    if (latest.status === 'minted') return latest
  }
  const latest = (await getSubmission(ctx.db, submission.id)) ?? submission
  // Say what is true at this point: before settlement nothing has been charged yet.
  const message =
    latest.status === 'settling'
      ? 'The payment has not settled yet, so nothing has been charged. The submission goes on by itself: it ends minted, or released with your burns reusable if the payment never settles. Follow the status link.'
      : 'The portrait is paid for and owed, but could not be finished in time. It will finish on its own: follow the status link.'
  throw new AppError('UPSTREAM_FAILED', message, {
    retryable: true,
    details: { status: latest.status, statusUrl: statusUrl(ctx, submission.burnTxHash), lastError: latest.lastError },
  })
}
