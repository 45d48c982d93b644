import { getIdentity } from '../../operations/read/get-identity.ts'
import { call, type ChatAction, type OutputOf } from '../runner.ts'
import { fmt } from '../words.ts'
import type { IntentHandler, Reply } from './define-intent.ts'

type Profile = OutputOf<typeof getIdentity>

/** One side of the comparison, as the answer's `sideBySide` lists it. */
function row(d: Profile) {
  return { address: d.address, name: d.name, portraits: d.burns.total, tokensBurned: d.burns.totalBurned, coin: d.balances.coin, nfts: d.nfts.count, tier: d.tier.name, reputation: d.reputation.score }
}
type Row = ReturnType<typeof row>

const label = (r: Row) => r.name ?? r.address
const line = (r: Row) => `${label(r)}: ${r.portraits} portraits, ${fmt(r.coin)} MEGACHAD, ${r.nfts} NFTs, tier ${r.tier}`

/** Two wallets or .mega names side by side (one named and the request's wallet will do). */
export const compare: IntentHandler = {
  description: 'Two wallets or .mega names side by side',
  example: 'compare alice.mega vs bob.mega',
  operations: [getIdentity],
  async reply(ctx, runner): Promise<Reply> {
    const who: string[] = [...ctx.entities.parties]
    if (who.length === 1 && ctx.requestWallet && !who.includes(ctx.requestWallet)) who.push(ctx.requestWallet)
    const base = { operationId: getIdentity.id, error: null }
    if (who.length < 2) {
      return { ...base, answer: 'Name two wallets or .mega names to compare, e.g. "compare alice.mega vs bob.mega" (or one, with your wallet as context).', data: null, actions: [] }
    }
    const pair = who.slice(0, 2)
    const sides = await Promise.all(pair.map(async (addressOrName) => ({ who: addressOrName, outcome: await runner.run(getIdentity, { addressOrName }) })))
    const actions = pair.map((addressOrName) => runner.action(call(getIdentity, { addressOrName }, `Profile of ${addressOrName}`))).filter((a): a is ChatAction => a !== undefined)
    const profiles: Profile[] = []
    for (const { who: side, outcome } of sides) {
      if (!outcome.ok) {
        const error = { code: outcome.code, message: outcome.message }
        return { ...base, answer: `Could not read ${side} (${error.code}): ${error.message}`, data: null, actions, error }
      }
      profiles.push(outcome.data)
    }
    const [a, b] = profiles as [Profile, Profile]
    const [ra, rb] = [row(a), row(b)]
    const leader = ra.portraits !== rb.portraits ? (ra.portraits > rb.portraits ? ra : rb) : ra.coin !== rb.coin ? (ra.coin > rb.coin ? ra : rb) : undefined
    return {
      ...base,
      answer: `${line(ra)}; ${line(rb)}. ${leader ? `${label(leader)} is ahead.` : 'Even.'}`,
      data: { wallets: [a, b], sideBySide: [ra, rb], leader: leader ? leader.address : null },
      actions,
    }
  },
}
