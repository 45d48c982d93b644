import type { Queryable } from './db.ts'
import type { ProtocolEvent } from '../adapters/bus/port.ts'

/** Stores an event; with a dedupe key, a second insert of the same key is a no-op (undefined). */
export async function insertEvent(db: Queryable, type: ProtocolEvent['type'], data: Record<string, unknown>, dedupeKey?: string): Promise<ProtocolEvent | undefined> {
  const { rows } = await db.query<{ id: string }>(
    'INSERT INTO events (type, data, dedupe_key) VALUES ($1, $2, $3) ON CONFLICT (dedupe_key) DO NOTHING RETURNING id',
    [type, JSON.stringify(data), dedupeKey ?? null],
  )
  return rows[0] ? { id: String(rows[0].id), type, data } : undefined
}

/** Events after `afterId`, oldest first, at most `limit`. */
export async function listEventsAfter(db: Queryable, afterId: bigint, limit: number): Promise<ProtocolEvent[]> {
  const { rows } = await db.query<{ id: string; type: ProtocolEvent['type']; data: Record<string, unknown> }>(
    'SELECT id, type, data FROM events WHERE id > $1 ORDER BY id LIMIT $2',
    [afterId.toString(), limit],
  )
  return rows.map((r) => ({ id: String(r.id), type: r.type, data: r.data }))
}

export async function lastEventId(db: Queryable): Promise<string> {
  const { rows } = await db.query<{ id: string | null }>('SELECT max(id) AS id FROM events')
  return String(rows[0]?.id ?? 0)
}

/**
 * Where a new stream starts, in one statement: the newest stored event and the portraits minted
 * so far (its first stats event counts them as /api/stats does).
 */
export async function getStreamStart(db: Queryable): Promise<{ head: string; portraits: number }> {
  const { rows } = await db.query<{ head: string | null; portraits: string | number | null }>(
    'SELECT (SELECT max(id) FROM events) AS head, (SELECT portraits FROM portrait_totals) AS portraits',
  )
  return { head: String(rows[0]?.head ?? 0), portraits: Number(rows[0]?.portraits ?? 0) }
}
