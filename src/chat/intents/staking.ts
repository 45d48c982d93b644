import { buildStakingTx } from '../../operations/defi/build-staking-tx.ts'
import { getDefiStaking } from '../../operations/defi/get-defi-staking.ts'
import { getSafety } from '../../operations/defi/get-safety.ts'
import { getEmission } from '../../operations/defi/get-emission.ts'
import { tokenAmountOf } from '../extract.ts'
import { call, type Call, type OutputOf } from '../runner.ts'
import { fmt, fmtDecimal, stepsWords } from '../words.ts'
import { operationIntent, recipientOf, type IntentInput, type Missing } from './define-intent.ts'
import { ownWallet } from './wallets.ts'

type Staking = OutputOf<typeof getDefiStaking>

const apr = (bps: number | null) => (bps === null ? 'no stake yet' : `${fmt(bps / 100, 1)} % APR`)

/** After a staking plan: the caller's own position (the recipient's), never a mentioned address's. */
const positionCall = (ctx: IntentInput): Call => call(getDefiStaking, { address: ownWallet(ctx) }, 'Staking stats and your position')

/** The staking read of the subject: "what can 0x… stake" may be about anyone. */
const stakingRead = {
  operation: getDefiStaking,
  input: (ctx: IntentInput) => ({ address: ctx.subject }),
  /** What can be staked where, the wallet's position, then what to say to act. */
  answer(d: Staking, _ctx: IntentInput, missing: Missing): string {
    const venues = `You can stake MEGACHAD in mogger (${fmtDecimal(d.mogger.totalStakedFormatted, 0)} staked, ${apr(d.mogger.aprBps)}) or the MC/MG LP token in jester (${fmtDecimal(d.jester.totalStakedFormatted, 0)} staked, ${apr(d.jester.aprBps)}); both earn MEGAGOONER (MG).`
    const w = d.wallet
    const position = w
      ? `${w.address} has ${fmtDecimal(w.mogger.stakedFormatted)} MEGACHAD staked in mogger (${fmtDecimal(w.mogger.earnedFormatted)} MG earned) and ${fmtDecimal(w.jester.stakedFormatted)} LP in jester (${fmtDecimal(w.jester.earnedFormatted)} MG earned)${w.nftCount ? `, ${w.nftCount} NFTs boosting ×${fmt(w.boostMultiplierBps / 10_000, 3)}` : ''}.`
      : 'Send your wallet to see your position.'
    return `${venues} ${position} ${missing.hint}`
  },
}

/** The staking contracts credit the sender: the plan is for the recipient, or (without one) for whichever wallet sends it. */
function stakingInput(action: 'stake' | 'unstake' | 'claim') {
  return (ctx: IntentInput) => {
    const amount = action === 'claim' ? undefined : tokenAmountOf(ctx.entities, 'MC')
    if (action !== 'claim' && !amount) return { missing: 'amount', hint: `Say how much to ${action}, e.g. "${action} 1000 MC in mogger".` } satisfies Missing
    if (ctx.recipientProblem) return { missing: 'recipient', hint: ctx.recipientProblem } satisfies Missing
    return { action, venue: ctx.entities.venue ?? 'mogger', amount, address: ownWallet(ctx) }
  }
}

/** A staking plan in words: its transactions, and who sends them and is credited. */
const planWords = (what: string) => (d: OutputOf<typeof buildStakingTx>, ctx: IntentInput) =>
  `${what} plan ready: ${d.executionPlan.length} transaction(s), sent from and credited to ${recipientOf(ctx)}: ${stepsWords(d.executionPlan, ctx.contractName)}.`

const related = (ctx: IntentInput) => [call(getDefiStaking, { address: ownWallet(ctx) }, 'Staking stats')]

export const stake = operationIntent({
  description: 'Stake tokens in a venue (mogger or jester): the transactions to send',
  example: 'stake 1000 mc in mogger',
  operation: buildStakingTx,
  pays: true,
  input: stakingInput('stake'),
  whenMissing: stakingRead,
  answer: planWords('Staking'),
  next: (ctx) => [positionCall(ctx), call(getSafety, {}, 'Check the safety state before writing')],
  related,
})

export const unstake = operationIntent({
  description: 'Unstake tokens from a venue: the transaction to send',
  example: 'unstake 500 from jester',
  operation: buildStakingTx,
  pays: true,
  input: stakingInput('unstake'),
  whenMissing: stakingRead,
  answer: planWords('Unstaking'),
  next: (ctx) => [positionCall(ctx)],
  related,
})

export const claimRewards = operationIntent({
  description: 'Claim staking rewards from a venue',
  example: 'claim my rewards from mogger',
  operation: buildStakingTx,
  pays: true,
  input: stakingInput('claim'),
  answer: planWords('Claim'),
  next: (ctx) => [positionCall(ctx)],
})

export const stakingPosition = operationIntent({
  description: 'Staking stats of both venues and the wallet position',
  example: 'my staking position',
  operation: getDefiStaking,
  input: (ctx) => ({ address: ctx.subject }),
  answer: (d, ctx) => stakingRead.answer(d, ctx, { missing: 'amount', hint: 'To act, say e.g. "stake 1000 MC in mogger" or "claim from mogger".' }),
})

export const emissionSchedule = operationIntent({
  description: 'Emission schedule (225 weeks, quadratic decay) and its split',
  example: 'emission schedule',
  operation: getEmission,
  input: () => ({}),
  answer: (d) =>
    `Week ${d.currentWeek} of ${d.totalWeeks}: ${fmtDecimal(d.weeklyEmissionFormatted)} MG this week, split ${d.split.moggerPct} % to mogger, ${d.split.jesterPct} % to jester and ${d.split.treasuryPct} % to the treasury; the weekly amount decays quadratically to the end.`,
})
