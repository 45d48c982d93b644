import type { Queryable } from './db.ts'

/** Referral agents' codes and what each agent signed about itself (`referral_codes`). */

/** Remembers an agent's code, so the code resolves back to the agent (derived data: a second call changes nothing). */
export async function rememberReferralCode(db: Queryable, code: string, agent: `0x${string}`): Promise<void> {
  await db.query('INSERT INTO referral_codes (code, agent) VALUES ($1, $2) ON CONFLICT (code) DO NOTHING', [code, agent])
}

/**
 * Stores what the agent signed (endpoint, description). A newer signed write replaces an older
 * one (an omitted field keeps its signed value); a row nobody signed is replaced whole; an
 * older signature (a replay) changes nothing.
 */
export async function storeSignedAgentProfile(
  db: Queryable,
  code: string,
  agent: `0x${string}`,
  profile: { mcpEndpoint?: string; description?: string; signature: string; issuedAt: number },
): Promise<void> {
  await db.query(
    `INSERT INTO referral_codes (code, agent, mcp_endpoint, description, signature, signed_at) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (code) DO UPDATE SET
       mcp_endpoint = CASE WHEN referral_codes.signature IS NULL THEN EXCLUDED.mcp_endpoint ELSE coalesce(EXCLUDED.mcp_endpoint, referral_codes.mcp_endpoint) END,
       description = CASE WHEN referral_codes.signature IS NULL THEN EXCLUDED.description ELSE coalesce(EXCLUDED.description, referral_codes.description) END,
       signature = EXCLUDED.signature,
       signed_at = EXCLUDED.signed_at
     WHERE referral_codes.signed_at IS NULL OR referral_codes.signed_at < EXCLUDED.signed_at`,
    [code, agent, profile.mcpEndpoint ?? null, profile.description ?? null, profile.signature, profile.issuedAt],
  )
}

/** The agent a code was remembered for, as stored. */
export async function findAgentByReferralCode(db: Queryable, code: string): Promise<string | undefined> {
  const { rows } = await db.query<{ agent: string }>('SELECT agent FROM referral_codes WHERE code = $1', [code])
  return rows[0]?.agent
}
