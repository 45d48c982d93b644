import type { Queryable } from './db.ts'

/**
 * The service's own transactions (`chain_txs`) and every signed version of each
 * (`chain_tx_attempts`): what the durable sender stores before it broadcasts.
 */

export type ChainTxStatus = 'signed' | 'broadcast' | 'mined' | 'reverted' | 'dropped'

/** Statuses of a transaction that may still be mined, replaced or dropped. */
export const OPEN_STATUSES = ['signed', 'broadcast'] as const

export type StoredTx = {
  idempotencyKey: string
  sender: `0x${string}`
  nonce: number
  to: `0x${string}`
  data: `0x${string}`
  value: bigint
  /** Signed bytes of the newest version; `txHash` is their hash (or the mined version's once recorded). */
  rawTx: `0x${string}`
  txHash: `0x${string}`
  status: ChainTxStatus
  gasLimit: bigint | null
  maxFeePerGas: bigint | null
  maxPriorityFeePerGas: bigint | null
  blockNumber: number | null
  gasUsed: string | null
}

/** A signed transaction ready to be stored (first version). */
export type NewSignedTx = {
  idempotencyKey: string
  sender: `0x${string}`
  nonce: number
  to: `0x${string}`
  data: `0x${string}`
  value: bigint
  rawTx: `0x${string}`
  txHash: `0x${string}`
  gasLimit: bigint
  maxFeePerGas: bigint
  maxPriorityFeePerGas: bigint
}

/** Every signed version of one transaction and how long ago the newest was signed (database clock). */
export type TxVersions = { hashes: `0x${string}`[]; newestAgeMs: number }

type Row = {
  idempotency_key: string
  sender: string
  nonce: string | number
  to_address: string
  data: string
  value: string
  raw_tx: string
  tx_hash: string
  status: ChainTxStatus
  gas_limit: string | null
  max_fee_per_gas: string | null
  max_priority_fee_per_gas: string | null
  block_number: string | number | null
  gas_used: string | null
}

const bigOrNull = (v: string | null) => (v === null ? null : BigInt(v))

function toStoredTx(row: Row): StoredTx {
  return {
    idempotencyKey: row.idempotency_key,
    sender: row.sender as `0x${string}`,
    nonce: Number(row.nonce),
    to: row.to_address as `0x${string}`,
    data: row.data as `0x${string}`,
    value: BigInt(row.value),
    rawTx: row.raw_tx as `0x${string}`,
    txHash: row.tx_hash as `0x${string}`,
    status: row.status,
    gasLimit: bigOrNull(row.gas_limit),
    maxFeePerGas: bigOrNull(row.max_fee_per_gas),
    maxPriorityFeePerGas: bigOrNull(row.max_priority_fee_per_gas),
    blockNumber: row.block_number === null ? null : Number(row.block_number),
    gasUsed: row.gas_used,
  }
}

export async function findChainTx(db: Queryable, key: string): Promise<StoredTx | undefined> {
  const { rows } = await db.query<Row>('SELECT * FROM chain_txs WHERE idempotency_key = $1', [key])
  return rows[0] && toStoredTx(rows[0])
}

/** The stored transactions among `keys` (any order). */
export async function findChainTxs(db: Queryable, keys: string[]): Promise<StoredTx[]> {
  const { rows } = await db.query<Row>('SELECT * FROM chain_txs WHERE idempotency_key = ANY($1::text[])', [keys])
  return rows.map(toStoredTx)
}

/**
 * Serialises nonce allocation of one sender until the end of the transaction `tx`, across
 * every process sharing the database.
 */
export async function lockSenderNonces(tx: Queryable, sender: `0x${string}`): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [sender])
}

/** The highest nonce stored for `sender`, or undefined when none is. */
export async function findMaxStoredNonce(db: Queryable, sender: `0x${string}`): Promise<number | undefined> {
  const { rows } = await db.query<{ max: string | number | null }>('SELECT max(nonce) AS max FROM chain_txs WHERE sender = $1', [sender])
  const max = rows[0]?.max
  return max === null || max === undefined ? undefined : Number(max)
}

/** Stores first versions (status `signed`) and their attempts, in one statement each. */
export async function insertSignedTxs(tx: Queryable, txs: NewSignedTx[]): Promise<StoredTx[]> {
  if (txs.length === 0) return []
  const column = <T>(pick: (t: NewSignedTx) => T) => txs.map(pick)
  const { rows } = await tx.query<Row>(
    `INSERT INTO chain_txs (sender, nonce, idempotency_key, to_address, data, value, raw_tx, tx_hash, status, gas_limit, max_fee_per_gas, max_priority_fee_per_gas)
     SELECT s, n, k, t, d, v, r, h, 'signed', g, f, p
       FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::numeric[], $7::text[], $8::text[], $9::numeric[], $10::numeric[], $11::numeric[])
         AS x(s, n, k, t, d, v, r, h, g, f, p)
     RETURNING *`,
    [
      column((t) => t.sender), column((t) => t.nonce), column((t) => t.idempotencyKey), column((t) => t.to), column((t) => t.data),
      column((t) => t.value.toString()), column((t) => t.rawTx), column((t) => t.txHash), column((t) => t.gasLimit.toString()),
      column((t) => t.maxFeePerGas.toString()), column((t) => t.maxPriorityFeePerGas.toString()),
    ],
  )
  await tx.query(
    `INSERT INTO chain_tx_attempts (tx_hash, idempotency_key, raw_tx, max_fee_per_gas)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::numeric[])`,
    [column((t) => t.txHash), column((t) => t.idempotencyKey), column((t) => t.rawTx), column((t) => t.maxFeePerGas.toString())],
  )
  const byKey = new Map(rows.map((row) => [row.idempotency_key, toStoredTx(row)]))
  return txs.map((t) => byKey.get(t.idempotencyKey)!)
}

/** Records that the transactions were handed to a node (`signed` becomes `broadcast`). */
export async function markBroadcast(db: Queryable, keys: string[]): Promise<void> {
  await db.query(
    `UPDATE chain_txs SET status = CASE WHEN status = 'signed' THEN 'broadcast' ELSE status END, broadcast_at = now(), updated_at = now()
     WHERE idempotency_key = ANY($1::text[])`,
    [keys],
  )
}

/** Open transactions of `sender`, in nonce order; only those below `belowNonce` when given. */
export async function listOpenTxs(db: Queryable, sender: `0x${string}`, belowNonce?: number): Promise<StoredTx[]> {
  const { rows } = await db.query<Row>(
    `SELECT * FROM chain_txs WHERE sender = $1 AND status IN ('signed', 'broadcast') AND ($2::bigint IS NULL OR nonce < $2) ORDER BY nonce`,
    [sender, belowNonce ?? null],
  )
  return rows.map(toStoredTx)
}

/**
 * Every signed version of each transaction in `keys` (the row's hash and each attempt's),
 * newest first, and how long ago the newest was signed.
 */
export async function listTxVersions(db: Queryable, keys: string[]): Promise<Map<string, TxVersions>> {
  const { rows } = await db.query<{ key: string; tx_hash: string; age_ms: number | string }>(
    `SELECT idempotency_key AS key, tx_hash, (extract(epoch FROM now() - created_at) * 1000)::float8 AS age_ms
       FROM chain_tx_attempts WHERE idempotency_key = ANY($1::text[])
     UNION ALL
     SELECT idempotency_key, tx_hash, NULL FROM chain_txs WHERE idempotency_key = ANY($1::text[])
     ORDER BY 1, 3 NULLS LAST`,
    [keys],
  )
  const versions = new Map<string, TxVersions>()
  for (const row of rows) {
    const entry = versions.get(row.key) ?? { hashes: [], newestAgeMs: row.age_ms === null ? 0 : Number(row.age_ms) }
    const hash = row.tx_hash as `0x${string}`
    if (!entry.hashes.includes(hash)) entry.hashes.push(hash)
    versions.set(row.key, entry)
  }
  return versions
}

/**
 * Stores a replacement (same nonce, new fees) of the version `previousHash`, only while that
 * version is still the newest and the transaction is open; otherwise returns the stored row
 * unchanged (another sweep or process replaced it, or it is final).
 */
export async function storeReplacement(
  tx: Queryable,
  replacement: { idempotencyKey: string; previousHash: `0x${string}`; rawTx: `0x${string}`; txHash: `0x${string}`; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint },
): Promise<{ stored: StoredTx; replaced: boolean }> {
  const current = (await tx.query<Row>('SELECT * FROM chain_txs WHERE idempotency_key = $1 FOR UPDATE', [replacement.idempotencyKey])).rows[0]!
  if (current.tx_hash !== replacement.previousHash || (current.status !== 'signed' && current.status !== 'broadcast')) {
    return { stored: toStoredTx(current), replaced: false }
  }
  await tx.query('INSERT INTO chain_tx_attempts (tx_hash, idempotency_key, raw_tx, max_fee_per_gas) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING', [
    replacement.txHash, replacement.idempotencyKey, replacement.rawTx, replacement.maxFeePerGas.toString(),
  ])
  const { rows } = await tx.query<Row>(
    'UPDATE chain_txs SET raw_tx = $2, tx_hash = $3, max_fee_per_gas = $4, max_priority_fee_per_gas = $5, updated_at = now() WHERE idempotency_key = $1 RETURNING *',
    [replacement.idempotencyKey, replacement.rawTx, replacement.txHash, replacement.maxFeePerGas.toString(), replacement.maxPriorityFeePerGas.toString()],
  )
  return { stored: toStoredTx(rows[0]!), replaced: true }
}

export type MinedVersion = { key: string; status: 'mined' | 'reverted'; blockNumber: number; gasUsed: bigint; txHash: `0x${string}` }

/** Records the receipt of whichever version was mined, for each transaction: a receipt is always the outcome. */
export async function recordReceipts(db: Queryable, mined: MinedVersion[]): Promise<StoredTx[]> {
  if (mined.length === 0) return []
  const { rows } = await db.query<Row>(
    `UPDATE chain_txs AS c SET status = x.status, block_number = x.block_number, gas_used = x.gas_used, tx_hash = x.tx_hash, updated_at = now()
       FROM unnest($1::text[], $2::text[], $3::bigint[], $4::numeric[], $5::text[]) AS x(key, status, block_number, gas_used, tx_hash)
      WHERE c.idempotency_key = x.key
     RETURNING c.*`,
    [mined.map((m) => m.key), mined.map((m) => m.status), mined.map((m) => m.blockNumber), mined.map((m) => m.gasUsed.toString()), mined.map((m) => m.txHash)],
  )
  const byKey = new Map(rows.map((row) => [row.idempotency_key, toStoredTx(row)]))
  return mined.map((m) => byKey.get(m.key)!)
}

/** Marks an open transaction `dropped`; undefined when it was not open any more. */
export async function markDropped(db: Queryable, key: string): Promise<StoredTx | undefined> {
  const { rows } = await db.query<Row>(
    `UPDATE chain_txs SET status = 'dropped', updated_at = now() WHERE idempotency_key = $1 AND status IN ('signed', 'broadcast') RETURNING *`,
    [key],
  )
  return rows[0] && toStoredTx(rows[0])
}
