import type { Queryable } from './db.ts'
import { getSubmission, type Submission } from './submissions.ts'

export type PaymentIdentifier = { id: string; fingerprint: string; paymentFrom: string; paymentNonce: string }

/**
 * Binds a payment identifier to a request, unless it is already bound: the primary key
 * decides between concurrent requests, and the loser learns what the id is bound to.
 */
export async function reservePaymentIdentifier(
  db: Queryable,
  entry: PaymentIdentifier,
): Promise<{ reserved: true } | { reserved: false; existing: PaymentIdentifier }> {
  // A reservation left by a process that died before its claim or its release holds nothing:
  // after the longest a request can take before its claim, the identifier is free again.
  await db.query(
    `DELETE FROM payment_identifiers p WHERE p.id = $1 AND p.created_at < now() - interval '15 minutes'
       AND NOT EXISTS (SELECT 1 FROM submissions s WHERE s.payment_from = p.payment_from AND s.payment_nonce = p.payment_nonce)`,
    [entry.id],
  )
  const inserted = await db.query(
    `INSERT INTO payment_identifiers (id, fingerprint, payment_from, payment_nonce) VALUES ($1, $2, $3, $4)
     ON CONFLICT (id) DO NOTHING RETURNING id`,
    [entry.id, entry.fingerprint, entry.paymentFrom.toLowerCase(), entry.paymentNonce.toLowerCase()],
  )
  if (inserted.rowCount > 0) return { reserved: true }
  const { rows } = await db.query<{ id: string; fingerprint: string; payment_from: string; payment_nonce: string }>('SELECT * FROM payment_identifiers WHERE id = $1', [entry.id])
  const row = rows[0]
  // Released between the insert and the read: the caller tries again.
  if (!row) return reservePaymentIdentifier(db, entry)
  return { reserved: false, existing: { id: row.id, fingerprint: row.fingerprint, paymentFrom: row.payment_from, paymentNonce: row.payment_nonce } }
}

/**
 * Frees an identifier whose request was refused before anything was claimed, so the client
 * may retry with it. An identifier whose payment holds a submission stays bound to it.
 */
export async function releasePaymentIdentifier(db: Queryable, id: string): Promise<void> {
  await db.query(
    `DELETE FROM payment_identifiers p WHERE p.id = $1
       AND NOT EXISTS (SELECT 1 FROM submissions s WHERE s.payment_from = p.payment_from AND s.payment_nonce = p.payment_nonce)`,
    [id],
  )
}

/** The submission a payment authorization paid for, if any. */
export async function findSubmissionByPayment(db: Queryable, from: string, nonce: string): Promise<Submission | undefined> {
  const { rows } = await db.query<{ id: string }>('SELECT id FROM submissions WHERE payment_from = $1 AND payment_nonce = $2', [from.toLowerCase(), nonce.toLowerCase()])
  return rows[0] ? getSubmission(db, rows[0].id) : undefined
}
