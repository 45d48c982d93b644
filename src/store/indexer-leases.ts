import type { Queryable } from './db.ts'

/**
 * Takes or renews the named lease for `owner` for `ms` milliseconds. True when `owner` holds
 * it now: it was free, expired, or already ours. Decided by one statement, so two instances
 * never both hold it.
 */
export async function acquireLease(db: Queryable, name: string, owner: string, ms: number): Promise<boolean> {
  const { rows } = await db.query<{ owner: string }>(
    `INSERT INTO indexer_leases (name, owner, until) VALUES ($1, $2, now() + ($3 || ' milliseconds')::interval)
     ON CONFLICT (name) DO UPDATE SET owner = EXCLUDED.owner, until = EXCLUDED.until
       WHERE indexer_leases.owner = EXCLUDED.owner OR indexer_leases.until < now()
     RETURNING owner`,
    [name, owner, String(ms)],
  )
  return rows[0]?.owner === owner
}
