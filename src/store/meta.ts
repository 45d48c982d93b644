import type { Queryable } from './db.ts'

export async function getMeta(db: Queryable, key: string): Promise<string | undefined> {
  const { rows } = await db.query<{ value: string }>('SELECT value FROM service_meta WHERE key = $1', [key])
  return rows[0]?.value
}

export async function setMeta(db: Queryable, key: string, value: string): Promise<void> {
  await db.query(
    `INSERT INTO service_meta (key, value) VALUES ($1, $2)
     ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
    [key, value],
  )
}
