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

/** Gives the named lease up if `owner` holds it, so another instance takes over at once. */
export async function releaseLease(db: Queryable, name: string, owner: string): Promise<void> {
  await db.query('DELETE FROM indexer_leases WHERE name = $1 AND owner = $2', [name, owner])
}
