import { randomUUID } from 'node:crypto'
import type { Db, Queryable } from './db.ts'

export type SubmissionStatus = 'settling' | 'settled' | 'generated' | 'pinned' | 'minted'

export type Submission = {
  id: string
  source: 'x402-agent' | 'burn-to-create'
  burnTxHash: `0x${string}`
  devTxHash: `0x${string}`
  burner: `0x${string}`
  burnAmountWei: bigint
  /** The part of the burn sent to the dead address. */
  deadAmountWei: bigint
  referrer: `0x${string}` | null
  status: SubmissionStatus
  paymentFrom: `0x${string}` | null
  paymentNonce: `0x${string}` | null
  paymentValidBefore: bigint | null
  paymentPayload: unknown
  paymentRequirements: unknown
  claimedBlock: bigint
  settlementTxHash: `0x${string}` | null
  /** When the facilitator's settle was (about to be) called; null: it never was. */
  settleAttemptedAt: Date | null
  imageCid: string | null
  metadataCid: string | null
  tokenId: bigint | null
  mintTxHash: `0x${string}` | null
  attempts: number
  lastError: string | null
  nextAttemptAt: Date
  createdAt: Date
  updatedAt: Date
}

type Row = Record<string, any>

const big = (v: unknown) => (v === null || v === undefined ? null : BigInt(v as string))

function toSubmission(row: Row): Submission {
  return {
    id: row.id,
    source: row.source,
    burnTxHash: row.burn_tx_hash,
    devTxHash: row.dev_tx_hash,
    burner: row.burner,
    burnAmountWei: BigInt(row.burn_amount_wei),
    deadAmountWei: row.dead_amount_wei == null ? BigInt(row.burn_amount_wei) / 2n : BigInt(row.dead_amount_wei),
    referrer: row.referrer,
    status: row.status,
    paymentFrom: row.payment_from,
    paymentNonce: row.payment_nonce,
    paymentValidBefore: big(row.payment_valid_before),
    paymentPayload: row.payment_payload,
    paymentRequirements: row.payment_requirements,
    claimedBlock: BigInt(row.claimed_block),
    settlementTxHash: row.settlement_tx_hash,
    settleAttemptedAt: row.settle_attempted_at ? new Date(row.settle_attempted_at) : null,
    imageCid: row.image_cid,
    metadataCid: row.metadata_cid,
    tokenId: big(row.token_id),
    mintTxHash: row.mint_tx_hash,
    attempts: Number(row.attempts),
    lastError: row.last_error,
    nextAttemptAt: new Date(row.next_attempt_at),
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  }
}

export type NewSubmission = {
  source: Submission['source']
  burnTxHash: `0x${string}`
  devTxHash: `0x${string}`
  burner: `0x${string}`
  burnAmountWei: bigint
  /** The part sent to the dead address; default half of the burn. */
  deadAmountWei?: bigint
  referrer?: `0x${string}`
  payment?: { from: `0x${string}`; nonce: `0x${string}`; validBefore: bigint; payload: unknown; requirements: unknown }
  claimedBlock: bigint
  image: { bytes: Uint8Array; mimeType: string }
  leaseOwner: string
  leaseMs: number
}

export type ClaimResult =
  | { claimed: true; submission: Submission }
  | { claimed: false; conflict: 'burn_tx' | 'payment'; existing?: Submission }

const isUniqueViolation = (error: unknown) => (error as { code?: string })?.code === '23505'

/**
 * Claims both burn hashes and the payment for a new submission in one transaction. The
 * unique constraints decide between concurrent duplicates: exactly one claim wins, the others
 * learn which submission holds the hash.
 */
export async function claimSubmission(db: Db, input: NewSubmission): Promise<ClaimResult> {
  const id = randomUUID()
  const status: SubmissionStatus = input.payment ? 'settling' : 'settled'
  try {
    const submission = await db.transaction(async (tx) => {
      const { rows } = await tx.query(
        `INSERT INTO submissions (id, source, burn_tx_hash, dev_tx_hash, burner, burn_amount_wei, referrer, status,
           payment_from, payment_nonce, payment_valid_before, payment_payload, payment_requirements, claimed_block,
           lease_owner, lease_until, dead_amount_wei)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, now() + ($16 || ' milliseconds')::interval, $17)
         RETURNING *`,
        [
          id, input.source, input.burnTxHash, input.devTxHash, input.burner, input.burnAmountWei.toString(),
          input.referrer ?? null, status, input.payment?.from.toLowerCase() ?? null, input.payment?.nonce.toLowerCase() ?? null,
          input.payment?.validBefore.toString() ?? null,
          input.payment ? JSON.stringify(input.payment.payload) : null,
          input.payment ? JSON.stringify(input.payment.requirements) : null,
          input.claimedBlock.toString(), input.leaseOwner, String(input.leaseMs), (input.deadAmountWei ?? input.burnAmountWei / 2n).toString(),
        ],
      )
      if (input.burnTxHash === input.devTxHash) {
        await tx.query(`INSERT INTO tx_claims (tx_hash, submission_id, role) VALUES ($1, $2, 'both')`, [input.burnTxHash, id])
      } else {
        await tx.query(
          `INSERT INTO tx_claims (tx_hash, submission_id, role) VALUES ($1, $3, 'burn'), ($2, $3, 'dev')`,
          [input.burnTxHash, input.devTxHash, id],
        )
      }
      await tx.query('INSERT INTO submission_inputs (submission_id, image, mime_type) VALUES ($1, $2, $3)', [
        id, Buffer.from(input.image.bytes), input.image.mimeType,
      ])
      await tx.query(`INSERT INTO submission_steps (submission_id, step) VALUES ($1, 'claimed')`, [id])
      return toSubmission(rows[0]!)
    })
    return { claimed: true, submission }
  } catch (error) {
    if (!isUniqueViolation(error)) throw error
    const existing = (await findSubmissionByTxHash(db, input.burnTxHash)) ?? (await findSubmissionByTxHash(db, input.devTxHash))
    if (existing) return { claimed: false, conflict: 'burn_tx', existing }
    return { claimed: false, conflict: 'payment' }
  }
}

/** Undoes a claim whose payment failed: the burns can be submitted again. */
export async function releaseSubmission(db: Db, id: string): Promise<void> {
  await db.query(`DELETE FROM submissions WHERE id = $1 AND status = 'settling'`, [id])
}

export async function getSubmission(db: Queryable, id: string): Promise<Submission | undefined> {
  const { rows } = await db.query('SELECT * FROM submissions WHERE id = $1', [id])
  return rows[0] ? toSubmission(rows[0]) : undefined
}

export async function findSubmissionByTxHash(db: Queryable, txHash: string): Promise<Submission | undefined> {
  const { rows } = await db.query(
    'SELECT s.* FROM tx_claims c JOIN submissions s ON s.id = c.submission_id WHERE c.tx_hash = $1',
    [txHash.toLowerCase()],
  )
  return rows[0] ? toSubmission(rows[0]) : undefined
}

export async function getSubmissionInput(db: Queryable, id: string): Promise<{ image: Uint8Array; mimeType: string } | undefined> {
  const { rows } = await db.query<{ image: Uint8Array; mime_type: string }>('SELECT image, mime_type FROM submission_inputs WHERE submission_id = $1', [id])
  return rows[0] ? { image: new Uint8Array(rows[0].image), mimeType: rows[0].mime_type } : undefined
}

export type StepPatch = Partial<{
  status: SubmissionStatus
  settlementTxHash: string
  imageCid: string
  metadataCid: string
  tokenId: bigint
  mintTxHash: string
}>

const columns: Record<keyof StepPatch, string> = {
  status: 'status',
  settlementTxHash: 'settlement_tx_hash',
  imageCid: 'image_cid',
  metadataCid: 'metadata_cid',
  tokenId: 'token_id',
  mintTxHash: 'mint_tx_hash',
}

/**
 * Stores one step's result and its timestamp in one transaction, so the next step starts
 * from it and the step log never disagrees with the status. Given a transaction (a
 * Queryable without `transaction`), it runs inside it.
 */
export async function recordStep(
  db: Queryable | Db,
  id: string,
  step: string,
  patch: StepPatch,
  detail?: Record<string, unknown>,
): Promise<Submission> {
  const entries = Object.entries(patch).filter(([, v]) => v !== undefined) as Array<[keyof StepPatch, unknown]>
  const sets = entries.map(([key], i) => `${columns[key]} = $${i + 2}`)
  const write = async (q: Queryable) => {
    const { rows } = await q.query(
      `UPDATE submissions SET ${[...sets, 'attempts = 0', 'last_error = NULL', 'updated_at = now()'].join(', ')} WHERE id = $1 RETURNING *`,
      [id, ...entries.map(([, v]) => (typeof v === 'bigint' ? v.toString() : v))],
    )
    if (!rows[0]) throw new Error(`recordStep: no submission ${id}`)
    await q.query('INSERT INTO submission_steps (submission_id, step, detail) VALUES ($1, $2, $3)', [
      id, step, detail ? JSON.stringify(detail) : null,
    ])
    return toSubmission(rows[0])
  }
  return 'transaction' in db ? db.transaction(write) : write(db)
}

/**
 * Marks that the facilitator's settle is about to be called, before it is. Resolves with
 * false when the mark was already there (someone attempted it before: read the chain) or
 * the submission is gone, true when this caller set it and may settle.
 */
export async function markSettleAttempted(db: Queryable, id: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE submissions SET settle_attempted_at = now(), updated_at = now()
     WHERE id = $1 AND status = 'settling' AND settle_attempted_at IS NULL`,
    [id],
  )
  return rowCount === 1
}

/**
 * When the submission was recorded minted: the time of its 'minted' step, written once in the
 * transaction that records the mint (receipts state it as their issue time).
 */
export async function findMintedAt(db: Queryable, id: string): Promise<Date | undefined> {
  const { rows } = await db.query<{ at: string }>(`SELECT at FROM submission_steps WHERE submission_id = $1 AND step = 'minted' ORDER BY id LIMIT 1`, [id])
  return rows[0] ? new Date(rows[0].at) : undefined
}

export async function listSteps(db: Queryable, id: string): Promise<Array<{ step: string; at: Date; detail: unknown }>> {
  const { rows } = await db.query<{ step: string; at: string; detail: unknown }>(
    'SELECT step, at, detail FROM submission_steps WHERE submission_id = $1 ORDER BY id',
    [id],
  )
  return rows.map((r) => ({ step: r.step, at: new Date(r.at), detail: r.detail }))
}

/** A step failed: try again after `delayMs`; the lease is given up so any worker may. */
export async function scheduleRetry(db: Queryable, id: string, error: string, delayMs: number): Promise<void> {
  await db.query(
    `UPDATE submissions SET attempts = attempts + 1, last_error = $2,
       next_attempt_at = now() + ($3 || ' milliseconds')::interval, lease_owner = NULL, lease_until = NULL, updated_at = now()
     WHERE id = $1`,
    [id, error.slice(0, 500), String(Math.round(delayMs))],
  )
}

export async function renewLease(db: Queryable, id: string, owner: string, leaseMs: number): Promise<void> {
  await db.query(
    `UPDATE submissions SET lease_until = now() + ($3 || ' milliseconds')::interval WHERE id = $1 AND lease_owner = $2`,
    [id, owner, String(leaseMs)],
  )
}

export async function releaseLease(db: Queryable, id: string, owner: string): Promise<void> {
  await db.query('UPDATE submissions SET lease_owner = NULL, lease_until = NULL WHERE id = $1 AND lease_owner = $2', [id, owner])
}

/**
 * Takes the oldest owed submission that is due and not leased by a live worker. The lease
 * expires on its own, so a crashed worker's submissions are picked up again.
 */
export async function takeDueSubmission(db: Db, owner: string, leaseMs: number): Promise<Submission | undefined> {
  const { rows } = await db.query(
    `UPDATE submissions SET lease_owner = $1, lease_until = now() + ($2 || ' milliseconds')::interval
     WHERE id = (
       SELECT id FROM submissions
       WHERE status <> 'minted' AND next_attempt_at <= now() AND (lease_until IS NULL OR lease_until < now())
       ORDER BY next_attempt_at LIMIT 1 FOR UPDATE SKIP LOCKED
     ) RETURNING *`,
    [owner, String(leaseMs)],
  )
  return rows[0] ? toSubmission(rows[0]) : undefined
}

export async function countSubmissions(db: Queryable, filter: { settled?: boolean } = {}): Promise<number> {
  const { rows } = await db.query<{ n: string }>(
    filter.settled ? `SELECT count(*) AS n FROM submissions WHERE status <> 'settling'` : 'SELECT count(*) AS n FROM submissions',
  )
  return Number(rows[0]?.n ?? 0)
}

/** A stopping process gives up every submission it holds, so another worker takes them at once. */
export async function releaseLeasesOf(db: Queryable, owner: string): Promise<void> {
  await db.query('UPDATE submissions SET lease_owner = NULL, lease_until = NULL WHERE lease_owner = $1', [owner])
}
