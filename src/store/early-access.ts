import type { Queryable } from './db.ts'

/** Early-access (testnet beta) registrations, one per wallet (`early_access`). */

export type EarlyAccessRegistration = {
  wallet: `0x${string}`
  twitter: string | null
  tweetUrl: string | null
  referralCode: string
  referredBy: string | null
  path: 'instant' | 'referral'
  signature: string
  signedAt: number
}

/** Forgets a registration stored before signatures were required (nobody proved it was the wallet's). */
export async function deleteUnsignedRegistration(db: Queryable, wallet: `0x${string}`): Promise<void> {
  await db.query('DELETE FROM early_access WHERE wallet = $1 AND signature IS NULL', [wallet])
}

/**
 * Stores a registration unless the wallet has one or its code is taken; returns the wallet's
 * code now (its first registration's), or undefined when the code belongs to another wallet.
 */
export async function insertRegistration(db: Queryable, r: EarlyAccessRegistration): Promise<string | undefined> {
  await db.query(
    `INSERT INTO early_access (wallet, twitter, tweet_url, referral_code, referred_by, path, signature, signed_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT DO NOTHING`,
    [r.wallet, r.twitter, r.tweetUrl, r.referralCode, r.referredBy, r.path, r.signature, r.signedAt],
  )
  const { rows } = await db.query<{ referral_code: string }>('SELECT referral_code FROM early_access WHERE wallet = $1', [r.wallet])
  return rows[0]?.referral_code
}
