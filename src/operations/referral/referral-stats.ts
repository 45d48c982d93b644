import { z } from 'zod'
import { formatUnits } from 'viem'
import { TOKEN_SYMBOL } from '../../chain/constants.ts'
import { findAgentByReferralCode, rememberReferralCode } from '../../store/referral-codes.ts'
import type { Queryable } from '../../store/db.ts'
import { referralCodeOf } from './referral-code.ts'

/** An agent's referral stats as the referral answers show them. */
export const referralStats = z.object({ referralCount: z.number().int(), totalEarnings: z.string(), totalEarningsFormatted: z.string() })

export const toReferralStats = (s: { count: bigint; earnings: bigint }) => ({
  referralCount: Number(s.count),
  totalEarnings: s.earnings.toString(),
  totalEarningsFormatted: `${Number(formatUnits(s.earnings, 18)).toLocaleString('en-US')} ${TOKEN_SYMBOL}`,
})

/** Remembers a registered agent's code, so the code resolves back to the agent (derived data: anyone may trigger it). */
export async function rememberCode(db: Queryable, agent: `0x${string}`): Promise<string> {
  const code = referralCodeOf(agent)
  await rememberReferralCode(db, code, agent)
  return code
}

/**
 * The code an agent's answers show: once registered on chain (remembered then), and already
 * once the agent has posted a signed registration whose transaction is not mined yet, so the
 * agent sees the code it was given; `registered` says whether the code works yet.
 */
export async function shownCode(db: Queryable, agent: `0x${string}`, registered: boolean): Promise<string | null> {
  if (registered) return rememberCode(db, agent)
  const code = referralCodeOf(agent)
  const stored = await findAgentByReferralCode(db, code)
  return stored?.toLowerCase() === agent.toLowerCase() ? code : null
}
