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
  status: 'signed' | 'broadcast' | 'mined' | 'reverted'
  blockNumber: number | null
  gasUsed: string | null
}

export type SendRequest = { key: string; to: `0x${string}`; data: `0x${string}`; value?: bigint }

export type MinedTx = TxRecord & { receipt: TransactionReceipt }

/**
 * Sends transactions from one hot key so that each request (by idempotency key) becomes at
 * most one transaction: the signed bytes and their nonce are committed before broadcast, and
 * a retry looks the transaction up instead of signing another.
 */
export type TxSender = {
  address: `0x${string}`
  /** Signs and stores (or finds) the transaction for `key`, broadcasts it, waits for its receipt. */
  sendAndWait(request: SendRequest, options?: { timeoutMs?: number; onBroadcast?: () => void; onStored?: () => void }): Promise<MinedTx>
  /** The stored transaction for `key`, if any. */
  find(key: string): Promise<TxRecord | undefined>
  /** Re-broadcasts every stored transaction that has no receipt yet (after a restart). */
  resume(): Promise<void>
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

export function createTxSender(deps: { db: Db; chain: Chain; account: LocalAccount; log: Logger; stuckAfterMs?: number }): TxSender {
  const { db, chain, account, log } = deps
  const options = { stuckAfterMs: deps.stuckAfterMs ?? 30_000 }
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

  /** Signs the same nonce again with fees raised by a quarter, stores it, broadcasts it. */
  async function replace(row: Row): Promise<Row> {
    const bump = (v: bigint) => (v * 125n) / 100n + 1n
    const maxFee = bump(BigInt(row.max_fee_per_gas!))
    const priority = bump(BigInt(row.max_priority_fee_per_gas!))
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
    const updated = await db.transaction(async (tx) => {
      await tx.query('INSERT INTO chain_tx_attempts (tx_hash, idempotency_key, raw_tx, max_fee_per_gas) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING', [hash, row.idempotency_key, raw, maxFee.toString()])
      const { rows } = await tx.query<Row>(
        `UPDATE chain_txs SET raw_tx = $2, tx_hash = $3, max_fee_per_gas = $4, max_priority_fee_per_gas = $5, updated_at = now() WHERE idempotency_key = $1 RETURNING *`,
        [row.idempotency_key, raw, hash, maxFee.toString(), priority.toString()],
      )
      return rows[0]!
    })
    log.warn({ nonce: Number(row.nonce), previous: row.tx_hash, replacement: hash }, 'transaction stuck: replaced with a higher fee')
    await broadcast(updated)
    return updated
  }

  async function findReceipt(key: string): Promise<TransactionReceipt | undefined> {
    const { rows } = await db.query<{ tx_hash: string }>('SELECT tx_hash FROM chain_tx_attempts WHERE idempotency_key = $1 ORDER BY created_at DESC', [key])
    for (const { tx_hash } of rows) {
      const receipt = await client.getTransactionReceipt({ hash: tx_hash as `0x${string}` }).catch((error: Error) => {
        if (error.name === 'TransactionReceiptNotFoundError') return undefined
        throw rpcFailed('reading a receipt', error)
      })
      if (receipt) return receipt
    }
    return undefined
  }

  async function waitMined(start: Row, timeoutMs: number): Promise<MinedTx> {
    let row = start
    let receipt: TransactionReceipt | undefined
    let lastSent = Date.now()
    let lastTry = Date.now()
    // Poll the receipts directly, briefly at first: chains with fast blocks (and the devnet)
    // usually have one at once. Any signed version of the transaction may be the one mined.
    const deadline = Date.now() + timeoutMs
    for (let delay = 25; ; delay = Math.min(delay * 2, 1000)) {
      receipt = await findReceipt(row.idempotency_key)
      if (receipt) break
      if (Date.now() > deadline) throw rpcFailed('waiting for a receipt', new Error(`no receipt for ${row.tx_hash} after ${timeoutMs} ms`))
      if (Date.now() - lastSent > options.stuckAfterMs) {
        row = await replace(row).catch((error) => {
          log.warn({ err: error }, 'could not replace a stuck transaction yet')
          return row
        })
        lastSent = Date.now()
      } else if (Date.now() - lastTry > 2000) {
        // Not in a pool yet (the node refused it, e.g. behind a nonce gap): send it again.
        lastTry = Date.now()
        await broadcast(row).catch((error) => log.warn({ err: error }, 'could not send a stored transaction yet'))
      }
      await new Promise((resolve) => setTimeout(resolve, delay))
    }
    const status = receipt.status === 'success' ? 'mined' : 'reverted'
    const { rows } = await db.query<Row>(
      `UPDATE chain_txs SET status = $2, block_number = $3, gas_used = $4, tx_hash = $5, updated_at = now()
       WHERE idempotency_key = $1 RETURNING *`,
      [row.idempotency_key, status, Number(receipt.blockNumber), receipt.gasUsed.toString(), receipt.transactionHash],
    )
    return { ...toRecord(rows[0]!), receipt }
  }

  return {
    address: account.address,
    async sendAndWait(request, options = {}) {
      const row = (await findRow(request.key)) ?? (await signAndStore(request))
      options.onStored?.()
      if (row.status === 'signed' || row.status === 'broadcast') {
        const receipt = await findReceipt(row.idempotency_key).catch(() => undefined)
        if (!receipt) {
          // A refused broadcast is not fatal: the wait below keeps sending until it lands.
          await broadcast(row).catch((error) => log.warn({ err: error, nonce: Number(row.nonce) }, 'broadcast refused; will retry'))
          options.onBroadcast?.()
        }
      }
      return waitMined(row, options.timeoutMs ?? 30_000)
    },
    async find(key) {
      const row = await findRow(key)
      return row && toRecord(row)
    },
    async resume() {
      const { rows } = await db.query<Row>(
        `SELECT * FROM chain_txs WHERE sender = $1 AND status IN ('signed', 'broadcast') ORDER BY nonce`,
        [account.address],
      )
      for (const row of rows) {
        const receipt = await findReceipt(row.idempotency_key).catch(() => undefined)
        if (!receipt) {
          log.info({ nonce: Number(row.nonce), txHash: row.tx_hash }, 're-broadcasting a stored transaction')
          await broadcast(row)
        }
      }
    },
  }
}
