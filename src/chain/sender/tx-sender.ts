import { keccak256, type LocalAccount, type TransactionReceipt } from 'viem'
import type { Logger } from 'pino'
import type { Chain } from '../clients.ts'
import type { Db } from '../../store/db.ts'
import { AppError } from '../../errors/app-error.ts'
import { rpcFailed } from '../upstream-error.ts'

export type TxRecord = {
  idempotencyKey: string
  sender: `0x${string}`
  nonce: number
  txHash: `0x${string}`
  /**
   * `mined` and `reverted` carry the receipt of one of its signed versions; `dropped` means
   * another transaction of the key used its nonce, so no version can ever be mined.
   */
  status: 'signed' | 'broadcast' | 'mined' | 'reverted' | 'dropped'
  blockNumber: number | null
  gasUsed: string | null
}

export type SendRequest = { key: string; to: `0x${string}`; data: `0x${string}`; value?: bigint }

export type MinedTx = TxRecord & { receipt: TransactionReceipt }

/**
 * A stored transaction that can never be mined: the key's nonce on chain is past its nonce and
 * none of its signed versions has a receipt (another transaction of the key used the nonce).
 * Final for its idempotency key, so not retryable with that key; it never executed, so the
 * caller may do the same work again under a new key.
 */
export class TxDroppedError extends AppError {
  override name = 'TxDroppedError'
  /** Stable tag for callers (also in `details.reason`). */
  readonly reason = 'TX_DROPPED' as const
  readonly idempotencyKey: string
  readonly txHash: `0x${string}`
  readonly nonce: number

  constructor(record: Pick<TxRecord, 'idempotencyKey' | 'txHash' | 'nonce'>) {
    super('UPSTREAM_FAILED', `The transaction ${record.txHash} was dropped: another transaction of the key used its nonce ${record.nonce}.`, {
      retryable: false,
      details: { reason: 'TX_DROPPED', txHash: record.txHash, nonce: record.nonce },
    })
    this.idempotencyKey = record.idempotencyKey
    this.txHash = record.txHash
    this.nonce = record.nonce
  }
}

export function isTxDropped(error: unknown): error is TxDroppedError {
  return error instanceof TxDroppedError
}

/**
 * Sends transactions from one hot key so that each request (by idempotency key) becomes at
 * most one transaction: the signed bytes and their nonce are committed before broadcast, and
 * a retry looks the transaction up instead of signing another.
 */
export type TxSender = {
  address: `0x${string}`
  /**
   * Signs and stores (or finds) the transaction for `key`, broadcasts it, waits for its receipt.
   * Rejects with `TxDroppedError` when the transaction is (or becomes) `dropped`.
   */
  sendAndWait(request: SendRequest, options?: { timeoutMs?: number; onBroadcast?: () => void; onStored?: () => void }): Promise<MinedTx>
  /** The stored transaction for `key`, if any. */
  find(key: string): Promise<TxRecord | undefined>
  /** After a restart: sends again (or records, replaces, marks dropped) every stored transaction without a final state. */
  resume(): Promise<void>
  /**
   * Starts watching every stored transaction of this key that has no final state yet,
   * whether or not a request still waits for it: records its receipt once mined, re-sends it
   * while no node holds it, and replaces it (same nonce, fees +25 %) once stuck past
   * `stuckAfterMs`, marks it `dropped` once another transaction used its nonce. Runs until `stop()`.
   */
  start(): void
  /** Stops the watch loop (waits for the sweep under way). */
  stop(): Promise<void>
}

type Row = {
  idempotency_key: string
  sender: string
  nonce: string | number
  to_address: string
  data: string
  value: string
  gas_limit: string | null
  max_fee_per_gas: string | null
  max_priority_fee_per_gas: string | null
  tx_hash: string
  raw_tx: string
  status: TxRecord['status']
  block_number: string | number | null
  gas_used: string | null
}

const toRecord = (row: Row): TxRecord => ({
  idempotencyKey: row.idempotency_key,
  sender: row.sender as `0x${string}`,
  nonce: Number(row.nonce),
  txHash: row.tx_hash as `0x${string}`,
  status: row.status,
  blockNumber: row.block_number === null ? null : Number(row.block_number),
  gasUsed: row.gas_used,
})

export function createTxSender(deps: { db: Db; chain: Chain; account: LocalAccount; log: Logger; stuckAfterMs?: number; watchMs?: number }): TxSender {
  const { db, chain, account, log } = deps
  const options = { stuckAfterMs: deps.stuckAfterMs ?? 30_000, watchMs: deps.watchMs ?? 1000 }
  // A request waits at least twice the stuck time by default, so it sees its replacement mined.
  const defaultTimeoutMs = Math.max(30_000, 2 * options.stuckAfterMs)
  const client = chain.client

  async function findRow(key: string): Promise<Row | undefined> {
    const { rows } = await db.query<Row>('SELECT * FROM chain_txs WHERE idempotency_key = $1', [key])
    return rows[0]
  }

  // Fees move slowly; one reading serves the transactions of the next second.
  let fees: { value: Promise<{ maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }>; at: number } | undefined
  const currentFees = () => {
    if (!fees || Date.now() - fees.at > 1000) {
      const value = client.estimateFeesPerGas()
      fees = { value, at: Date.now() }
      value.catch(() => (fees = undefined))
    }
    return fees.value
  }

  // The key's used nonce count ('latest'), read at most once a second for every look. A reading
  // older than a receipt lookup that follows it is still safe for deciding "dropped": a nonce
  // used at the reading stays used, and a version of ours mined before it has a receipt by then.
  let usedNonces: { value: Promise<number>; at: number } | undefined
  const latestNonce = () => {
    if (!usedNonces || Date.now() - usedNonces.at > 1000) {
      const value = client.getTransactionCount({ address: account.address, blockTag: 'latest' })
      usedNonces = { value, at: Date.now() }
      value.catch(() => (usedNonces = undefined))
    }
    return usedNonces.value
  }

  async function signAndStore(request: SendRequest): Promise<Row> {
    const estimate = client.estimateGas({ account: account.address, to: request.to, data: request.data, value: request.value ?? 0n }).catch((cause) => {
      // A reverting call is a permanent failure of this request, not an RPC hiccup.
      const reverted = /revert/i.test(String((cause as Error)?.message))
      if (reverted) throw new AppError('INTERNAL_ERROR', 'internal error', { cause, retryable: false })
      throw rpcFailed('estimating gas', cause)
    })
    const chainState = Promise.all([currentFees(), client.getTransactionCount({ address: account.address, blockTag: 'pending' })]).catch((cause) => {
      throw rpcFailed('reading fees and nonce', cause)
    })
    const [gas, [feeData, chainNonce]] = await Promise.all([estimate, chainState])
    return db.transaction(async (tx) => {
      // One nonce sequence per key, shared by every process using the same database.
      await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [account.address])
      const existing = await tx.query<Row>('SELECT * FROM chain_txs WHERE idempotency_key = $1', [request.key])
      if (existing.rows[0]) return existing.rows[0]
      const { rows } = await tx.query<{ max: string | null }>('SELECT max(nonce) AS max FROM chain_txs WHERE sender = $1', [account.address])
      const nonce = Math.max(chainNonce, rows[0]?.max === null || rows[0]?.max === undefined ? 0 : Number(rows[0].max) + 1)
      const raw = await account.signTransaction({
        chainId: chain.info.chainId,
        type: 'eip1559',
        to: request.to,
        data: request.data,
        value: request.value ?? 0n,
        nonce,
        gas: (gas * 12n) / 10n,
        maxFeePerGas: feeData.maxFeePerGas,
        maxPriorityFeePerGas: feeData.maxPriorityFeePerGas,
      })
      const gasLimit = (gas * 12n) / 10n
      const inserted = await tx.query<Row>(
        `INSERT INTO chain_txs (sender, nonce, idempotency_key, to_address, data, value, raw_tx, tx_hash, status, gas_limit, max_fee_per_gas, max_priority_fee_per_gas)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'signed', $9, $10, $11) RETURNING *`,
        [account.address, nonce, request.key, request.to, request.data, (request.value ?? 0n).toString(), raw, keccak256(raw),
          gasLimit.toString(), feeData.maxFeePerGas.toString(), feeData.maxPriorityFeePerGas.toString()],
      )
      await tx.query('INSERT INTO chain_tx_attempts (tx_hash, idempotency_key, raw_tx, max_fee_per_gas) VALUES ($1, $2, $3, $4)', [
        keccak256(raw), request.key, raw, feeData.maxFeePerGas.toString(),
      ])
      return inserted.rows[0]!
    })
  }

  async function broadcast(row: Row, fillGaps = true): Promise<void> {
    try {
      await client.request({ method: 'eth_sendRawTransaction', params: [row.raw_tx as `0x${string}`] })
    } catch (cause) {
      const message = String((cause as Error)?.message ?? cause)
      if (fillGaps && /nonce too high|nonce gap|future/i.test(message)) {
        // A lower nonce was stored by a process that died before sending it: send it (and any
        // other stored one below) first, then this one.
        await broadcastStoredBelow(Number(row.nonce))
        return broadcast(row, false)
      }
      // The same bytes were sent before: pooled or already mined. The receipt decides.
      if (!/already known|nonce too low|known transaction|already imported/i.test(message)) {
        throw rpcFailed('broadcasting a transaction', cause)
      }
    }
    await db.query(`UPDATE chain_txs SET status = CASE WHEN status = 'signed' THEN 'broadcast' ELSE status END, broadcast_at = now(), updated_at = now() WHERE idempotency_key = $1`, [row.idempotency_key])
    if (row.status === 'signed') row.status = 'broadcast'
  }

  async function broadcastStoredBelow(nonce: number): Promise<void> {
    const { rows } = await db.query<Row>(
      `SELECT * FROM chain_txs WHERE sender = $1 AND nonce < $2 AND status IN ('signed', 'broadcast') ORDER BY nonce`,
      [account.address, nonce],
    )
    for (const stored of rows) await broadcast(stored, false).catch((error) => log.warn({ err: error, nonce: Number(stored.nonce) }, 'could not send a stored transaction yet'))
  }

  /**
   * Signs the same nonce again with fees raised by a quarter (at least the current fees),
   * stores it, broadcasts it. Only the version `row` describes is replaced: when another
   * sweep or process replaced it (or it was mined) meanwhile, the stored row is returned.
   */
  async function replace(row: Row): Promise<Row> {
    const bump = (v: bigint) => (v * 125n) / 100n + 1n
    const now = await currentFees().catch(() => ({ maxFeePerGas: 0n, maxPriorityFeePerGas: 0n }))
    const max = (a: bigint, b: bigint) => (a > b ? a : b)
    const priority = max(bump(BigInt(row.max_priority_fee_per_gas!)), now.maxPriorityFeePerGas)
    const maxFee = max(max(bump(BigInt(row.max_fee_per_gas!)), now.maxFeePerGas), priority)
    const raw = await account.signTransaction({
      chainId: chain.info.chainId,
      type: 'eip1559',
      to: row.to_address as `0x${string}`,
      data: row.data as `0x${string}`,
      value: BigInt(row.value),
      nonce: Number(row.nonce),
      gas: BigInt(row.gas_limit!),
      maxFeePerGas: maxFee,
      maxPriorityFeePerGas: priority,
    })
    const hash = keccak256(raw)
    const outcome = await db.transaction(async (tx) => {
      const current = (await tx.query<Row>('SELECT * FROM chain_txs WHERE idempotency_key = $1 FOR UPDATE', [row.idempotency_key])).rows[0]!
      if (current.tx_hash !== row.tx_hash || (current.status !== 'signed' && current.status !== 'broadcast')) return { row: current, replaced: false }
      await tx.query('INSERT INTO chain_tx_attempts (tx_hash, idempotency_key, raw_tx, max_fee_per_gas) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING', [hash, row.idempotency_key, raw, maxFee.toString()])
      const { rows } = await tx.query<Row>(
        `UPDATE chain_txs SET raw_tx = $2, tx_hash = $3, max_fee_per_gas = $4, max_priority_fee_per_gas = $5, updated_at = now() WHERE idempotency_key = $1 RETURNING *`,
        [row.idempotency_key, raw, hash, maxFee.toString(), priority.toString()],
      )
      return { row: rows[0]!, replaced: true }
    })
    if (!outcome.replaced) return outcome.row
    log.warn({ nonce: Number(row.nonce), previous: row.tx_hash, replacement: hash }, 'transaction stuck: replaced with a higher fee')
    lastTry.set(row.idempotency_key, Date.now())
    await broadcast(outcome.row)
    return outcome.row
  }

  /**
   * The receipt of whichever signed version was mined (every stored version: the row's own hash
   * and each attempt), and how long ago the newest was signed.
   */
  async function findReceipt(key: string): Promise<{ receipt?: TransactionReceipt; signedAgoMs: number }> {
    const { rows } = await db.query<{ tx_hash: string; age_ms: number | string }>(
      'SELECT tx_hash, (extract(epoch FROM now() - created_at) * 1000)::float8 AS age_ms FROM chain_tx_attempts WHERE idempotency_key = $1 ORDER BY created_at DESC',
      [key],
    )
    const row = (await db.query<{ tx_hash: string }>('SELECT tx_hash FROM chain_txs WHERE idempotency_key = $1', [key])).rows[0]
    const hashes = rows.map((r) => r.tx_hash)
    if (row && !hashes.includes(row.tx_hash)) hashes.push(row.tx_hash)
    const signedAgoMs = rows[0] ? Number(rows[0].age_ms) : 0
    for (const tx_hash of hashes) {
      const receipt = await client.getTransactionReceipt({ hash: tx_hash as `0x${string}` }).catch((error: Error) => {
        if (error.name === 'TransactionReceiptNotFoundError') return undefined
        throw rpcFailed('reading a receipt', error)
      })
      if (receipt) return { receipt, signedAgoMs }
    }
    return { signedAgoMs }
  }

  async function record(row: Row, receipt: TransactionReceipt): Promise<Row> {
    lastTry.delete(row.idempotency_key)
    const status = receipt.status === 'success' ? 'mined' : 'reverted'
    const { rows } = await db.query<Row>(
      `UPDATE chain_txs SET status = $2, block_number = $3, gas_used = $4, tx_hash = $5, updated_at = now()
       WHERE idempotency_key = $1 RETURNING *`,
      [row.idempotency_key, status, Number(receipt.blockNumber), receipt.gasUsed.toString(), receipt.transactionHash],
    )
    return rows[0]!
  }

  /**
   * Marks a transaction `dropped` when that is certain: the key's nonce on chain (read first) is
   * past the transaction's nonce, and then none of its stored versions has a receipt. Returns
   * the outcome when a version was mined after all, the dropped row, or nothing (still open).
   */
  async function settleIfNonceUsed(row: Row): Promise<{ row: Row; receipt?: TransactionReceipt } | undefined> {
    const used = await latestNonce().catch(() => undefined)
    if (used === undefined || used <= Number(row.nonce)) return undefined
    // Receipts are read after the nonce: a version of ours that used it is seen here.
    const late = await findReceipt(row.idempotency_key)
    if (late.receipt) return { row: await record(row, late.receipt), receipt: late.receipt }
    lastTry.delete(row.idempotency_key)
    const { rows } = await db.query<Row>(
      `UPDATE chain_txs SET status = 'dropped', updated_at = now() WHERE idempotency_key = $1 AND status IN ('signed', 'broadcast') RETURNING *`,
      [row.idempotency_key],
    )
    const dropped = rows[0] ?? (await findRow(row.idempotency_key))!
    if (rows[0]) log.error({ nonce: Number(row.nonce), key: row.idempotency_key, txHash: row.tx_hash }, 'the nonce of a stored transaction was used by another transaction of the key: dropped')
    return { row: dropped }
  }

  /** When each key was last sent by this process (re-sends are spaced, not repeated each poll). */
  const lastTry = new Map<string, number>()

  /**
   * One look at a transaction without a final state: its receipt is recorded when any signed
   * version was mined; it is marked `dropped` when another transaction used its nonce;
   * otherwise it is replaced when its newest version has waited past the stuck time, or sent
   * again (a node may have dropped or refused it).
   */
  async function tend(row: Row): Promise<{ row: Row; receipt?: TransactionReceipt }> {
    // Final already (by another process or an earlier look): a dropped one stays dropped.
    if (row.status === 'dropped') return { row }
    const { receipt, signedAgoMs } = await findReceipt(row.idempotency_key)
    if (receipt) return { row: await record(row, receipt), receipt }
    // A nonce the chain has already used, by none of our versions: another transaction took
    // it. Replacing or re-sending cannot help.
    const settled = await settleIfNonceUsed(row)
    if (settled) return settled
    if (signedAgoMs > options.stuckAfterMs) {
      const replaced = await replace(row).catch((error) => {
        log.warn({ err: error, nonce: Number(row.nonce) }, 'could not replace a stuck transaction yet')
        return row
      })
      return { row: replaced }
    }
    if (Date.now() - (lastTry.get(row.idempotency_key) ?? 0) > 2000) {
      lastTry.set(row.idempotency_key, Date.now())
      await broadcast(row).catch((error) => log.warn({ err: error, nonce: Number(row.nonce) }, 'could not send a stored transaction yet'))
    }
    return { row }
  }

  /** Keys a request of this process is waiting for (the watch loop leaves them to it). */
  const waiting = new Map<string, number>()

  async function waitMined(start: Row, timeoutMs: number): Promise<MinedTx> {
    const key = start.idempotency_key
    waiting.set(key, (waiting.get(key) ?? 0) + 1)
    try {
      let row = start
      // Poll the receipts directly, briefly at first: chains with fast blocks (and the devnet)
      // usually have one at once. Any signed version of the transaction may be the one mined.
      // The replacement of a stuck transaction comes before the request's own deadline, and the
      // watch loop goes on with it after the request gave up.
      const deadline = Date.now() + timeoutMs
      for (let delay = 25; ; delay = Math.min(delay * 2, 1000)) {
        const looked = await tend(row)
        if (looked.receipt) return { ...toRecord(looked.row), receipt: looked.receipt }
        if (looked.row.status === 'dropped') throw new TxDroppedError(toRecord(looked.row))
        row = looked.row
        if (Date.now() > deadline) throw rpcFailed('waiting for a receipt', new Error(`no receipt for ${row.tx_hash} after ${timeoutMs} ms`))
        await new Promise((resolve) => setTimeout(resolve, delay))
      }
    } finally {
      const left = (waiting.get(key) ?? 1) - 1
      if (left > 0) waiting.set(key, left)
      else waiting.delete(key)
    }
  }

  let watching = false
  let timer: NodeJS.Timeout | undefined
  let sweeping: Promise<void> | undefined

  /**
   * One look at every stored transaction of the key without a final state, in nonce order,
   * except those `skip` names; a failed look is logged and the others go on.
   */
  async function tendOpen(skip: (row: Row) => boolean): Promise<void> {
    const { rows } = await db.query<Row>(
      `SELECT * FROM chain_txs WHERE sender = $1 AND status IN ('signed', 'broadcast') ORDER BY nonce`,
      [account.address],
    )
    for (const row of rows) {
      if (skip(row)) continue
      await tend(row).catch((error) => log.warn({ err: error, nonce: Number(row.nonce) }, 'could not look at a stored transaction yet'))
    }
  }

  /** The watch loop's look: requests of this process tend their own; a stop ends it early. */
  const sweep = () => tendOpen((row) => !watching || waiting.has(row.idempotency_key))

  return {
    address: account.address,
    async sendAndWait(request, options = {}) {
      const row = (await findRow(request.key)) ?? (await signAndStore(request))
      options.onStored?.()
      if (row.status === 'dropped') throw new TxDroppedError(toRecord(row))
      if (row.status === 'signed' || row.status === 'broadcast') {
        const { receipt } = await findReceipt(row.idempotency_key).catch(() => ({ receipt: undefined }))
        if (!receipt) {
          lastTry.set(row.idempotency_key, Date.now())
          // A refused broadcast is not fatal: the wait below keeps sending until it lands.
          await broadcast(row).catch((error) => log.warn({ err: error, nonce: Number(row.nonce) }, 'broadcast refused; will retry'))
          options.onBroadcast?.()
        }
      }
      return waitMined(row, options.timeoutMs ?? defaultTimeoutMs)
    },
    async find(key) {
      const row = await findRow(key)
      return row && toRecord(row)
    },
    async resume() {
      // Nothing was sent by this process yet, so every open transaction is sent again (or
      // recorded, replaced, marked dropped), as one look of the watch loop would.
      await tendOpen(() => false)
    },
    start() {
      if (watching) return
      watching = true
      const tick = () => {
        sweeping = sweep()
          .catch((error) => log.warn({ err: error }, 'could not look at the stored transactions yet'))
          .finally(() => {
            sweeping = undefined
            if (watching) timer = setTimeout(tick, options.watchMs)
          })
      }
      tick()
    },
    async stop() {
      watching = false
      clearTimeout(timer)
      await sweeping
    },
  }
}
