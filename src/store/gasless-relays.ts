import type { Queryable } from './db.ts'
import { coalescePer } from '../util/coalesce.ts'

/**
 * Gasless relays: each signed request posted (`gasless_relays`) and which relay holds each
 * (burner, relayer nonce) (`gasless_nonces`), so one nonce is relayed by one transaction.
 * A relay is named by its sender key (`tx_key`), the idempotency key of its stored transaction.
 */

/** The relay that first took this exact signature, if it was posted before. */
export async function findRelayBySignature(db: Queryable, burner: `0x${string}`, signature: string): Promise<string | undefined> {
  const { rows } = await db.query<{ tx_key: string }>(
    'SELECT tx_key FROM gasless_relays WHERE burner = $1 AND lower(signature) = lower($2) ORDER BY created_at LIMIT 1',
    [burner, signature],
  )
  return rows[0]?.tx_key
}

/** Remembers a posted signature and the relay that answers it; the first one of (burner, nonce, deadline) stays. */
export async function recordRelayRequest(db: Queryable, r: { burner: `0x${string}`; nonce: bigint; signature: string; deadline: number; txKey: string }): Promise<void> {
  await db.query(
    `INSERT INTO gasless_relays (burner, relayer_nonce, signature, deadline, tx_key) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (burner, relayer_nonce, deadline) DO NOTHING`,
    [r.burner, r.nonce.toString(), r.signature, r.deadline, r.txKey],
  )
}

/** The relays holding nonces below `nonce` for this burner, newest first, at most `limit`. */
export async function listHeldNoncesBelow(db: Queryable, burner: `0x${string}`, nonce: bigint, limit: number): Promise<Array<{ nonce: bigint; txKey: string }>> {
  const { rows } = await db.query<{ relayer_nonce: string; tx_key: string }>(
    'SELECT relayer_nonce, tx_key FROM gasless_nonces WHERE burner = $1 AND relayer_nonce < $2 ORDER BY relayer_nonce DESC LIMIT $3',
    [burner, nonce.toString(), limit],
  )
  return rows.map((r) => ({ nonce: BigInt(r.relayer_nonce), txKey: r.tx_key }))
}

/**
 * Takes (burner, nonce) for `txKey` if nobody holds it; true when taken. With `request`, the
 * posted signature is recorded for the relay in the same statement when the nonce is taken
 * (as recordRelayRequest would). Claims that arrive together share one statement (each still
 * gets its own answer); only on the service's database handle, never inside a transaction
 * (a run may outlive it).
 */
export function claimNonce(db: Queryable, burner: `0x${string}`, nonce: bigint, txKey: string, request?: { signature: string; deadline: number }): Promise<boolean> {
  return claimNonces(db, { burner, nonce, txKey, request })
}

type Claim = { burner: `0x${string}`; nonce: bigint; txKey: string; request?: { signature: string; deadline: number } }

const claimNonces = coalescePer(async (db: Queryable, items: Claim[]) => {
  // Of several claims of one (burner, nonce) in a run, the first in call order is the one tried.
  const tried = new Map<string, Claim>()
  for (const item of items) if (!tried.has(`${item.burner}\n${item.nonce}`)) tried.set(`${item.burner}\n${item.nonce}`, item)
  const claims = [...tried.values()]
  const { rows } = await db.query<{ burner: string; relayer_nonce: string; tx_key: string }>(
    `WITH claimed AS (
       INSERT INTO gasless_nonces (burner, relayer_nonce, tx_key) SELECT * FROM unnest($1::text[], $2::numeric[], $3::text[])
       ON CONFLICT DO NOTHING RETURNING burner, relayer_nonce, tx_key
     ), recorded AS (
       INSERT INTO gasless_relays (burner, relayer_nonce, signature, deadline, tx_key)
       SELECT c.burner, c.relayer_nonce, r.signature, r.deadline, c.tx_key
       FROM claimed c JOIN unnest($1::text[], $2::numeric[], $4::text[], $5::bigint[]) AS r(burner, relayer_nonce, signature, deadline)
         ON r.burner = c.burner AND r.relayer_nonce = c.relayer_nonce AND r.signature IS NOT NULL
       ON CONFLICT (burner, relayer_nonce, deadline) DO NOTHING
     )
     SELECT burner, relayer_nonce::text, tx_key FROM claimed`,
    [
      claims.map((c) => c.burner), claims.map((c) => c.nonce.toString()), claims.map((c) => c.txKey),
      claims.map((c) => c.request?.signature ?? null), claims.map((c) => c.request?.deadline ?? null),
    ],
  )
  const taken = new Map(rows.map((r) => [`${r.burner}\n${r.relayer_nonce}`, r.tx_key]))
  // A claim is taken when its (burner, nonce) went to its own key in this run: the same key
  // posted twice in one run is taken by both, which holdNonce would have concluded anyway (the
  // second, refused, finds its own key holding the nonce).
  return items.map((item) => taken.get(`${item.burner}\n${item.nonce}`) === item.txKey)
})

/** The relay holding (burner, nonce), if any. */
export async function findNonceHolder(db: Queryable, burner: `0x${string}`, nonce: bigint): Promise<string | undefined> {
  const { rows } = await db.query<{ tx_key: string }>('SELECT tx_key FROM gasless_nonces WHERE burner = $1 AND relayer_nonce = $2', [burner, nonce.toString()])
  return rows[0]?.tx_key
}

/** Hands (burner, nonce) from `fromKey` to `toKey`; false when another request took it first. */
export async function takeOverNonce(db: Queryable, burner: `0x${string}`, nonce: bigint, fromKey: string, toKey: string): Promise<boolean> {
  const { rows } = await db.query('UPDATE gasless_nonces SET tx_key = $3 WHERE burner = $1 AND relayer_nonce = $2 AND tx_key = $4 RETURNING tx_key', [
    burner, nonce.toString(), toKey, fromKey,
  ])
  return rows.length > 0
}
