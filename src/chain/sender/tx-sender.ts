import type { LocalAccount, TransactionReceipt } from 'viem'
import type { Logger } from 'pino'
import type { Chain } from '../clients.ts'
import type { Db } from '../../store/db.ts'
import { findChainTx, listTxVersions, type ChainTxStatus, type StoredTx } from '../../store/chain-txs.ts'
import { rpcFailed } from '../upstream-error.ts'
import { createBatchClient } from './batch-client.ts'
import { cachedFor } from '../../util/cached-for.ts'
import { createSignAndStore, type SendRequest } from './sign-and-store.ts'
import { createBroadcaster } from './broadcast.ts'
import { createReplacer } from './replace-tx.ts'
import { createReceiptWatcher } from './receipt-watcher.ts'
import { readReceipts } from './read-receipts.ts'
import { createSyncSender, SYNC_SEND_MAX_WAIT_MS } from './sync-send.ts'
import { TxDroppedError } from './errors.ts'

export { TxDroppedError, isTxDropped } from './errors.ts'
export type { SendRequest } from './sign-and-store.ts'

export type TxRecord = {
  idempotencyKey: string
  sender: `0x${string}`
  nonce: number
  txHash: `0x${string}`
  /**
   * `mined` and `reverted` carry the receipt of one of its signed versions; `dropped` means
   * another transaction of the key used its nonce, so no version can ever be mined.
   */
  status: ChainTxStatus
  blockNumber: number | null
  gasUsed: string | null
}

export type MinedTx = TxRecord & { receipt: TransactionReceipt }

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
  /** Stops the watch loop (waits for the look under way); requests still waiting keep it going until they end. */
  stop(): Promise<void>
  /** Looks of the watch loop at the stored transactions finished so far (tests wait on it instead of sleeping). */
  sweeps(): number
}

export type TxSenderOptions = {
  db: Db
  chain: Chain
  account: LocalAccount
  log: Logger
  /** A transaction without a receipt this long after its newest version was signed is replaced. */
  stuckAfterMs?: number
  /** How often the watch loop reads the stored transactions of the key (other requests, other processes). */
  watchMs?: number
  /** How often the key's nonce on chain is read while a transaction is open: about a block time. */
  pollMs?: number
}

const toRecord = (tx: StoredTx): TxRecord => ({
  idempotencyKey: tx.idempotencyKey,
  sender: tx.sender,
  nonce: tx.nonce,
  txHash: tx.txHash,
  status: tx.status,
  blockNumber: tx.blockNumber,
  gasUsed: tx.gasUsed,
})

export function createTxSender(deps: TxSenderOptions): TxSender {
  const { db, chain, account, log } = deps
  const options = { stuckAfterMs: deps.stuckAfterMs ?? 30_000, watchMs: deps.watchMs ?? 1000, pollMs: deps.pollMs ?? 20 }
  // A request waits at least twice the stuck time by default, so it sees its replacement mined.
  const defaultTimeoutMs = Math.max(30_000, 2 * options.stuckAfterMs)
  const client = createBatchClient(chain)
  const fees = cachedFor(1000, () => client.estimateFeesPerGas())
  const signAndStore = createSignAndStore({ db, client, account, chainId: chain.info.chainId, fees })
  const { broadcast, sendForReceipt } = createBroadcaster({ db, client, sync: createSyncSender(chain), address: account.address, log })
  const watcher = createReceiptWatcher({
    db,
    client,
    address: account.address,
    log,
    broadcast,
    replace: createReplacer({ db, account, chainId: chain.info.chainId, fees }),
    options: { pollMs: options.pollMs, sweepMs: options.watchMs, stuckAfterMs: options.stuckAfterMs, resendMs: 2000 },
  })

  return {
    address: account.address,
    async sendAndWait(request, sendOptions = {}) {
      const timeoutMs = sendOptions.timeoutMs ?? defaultTimeoutMs
      // With the gas estimated by the caller there is no estimate to spare: the store's own
      // transaction finds a key stored before, so the look-up ahead of it is skipped.
      const found = request.gas === undefined ? await findChainTx(db, request.key) : undefined
      const { tx, created } = found
        ? { tx: found, created: false }
        : await signAndStore(request).catch(async (error) => {
            // Another process sharing the database may have stored this key between the look
            // above and the gas estimate, and its transaction may be mined already (the estimate
            // of the same call then reverts: a relayed signature is used up). That transaction
            // is this request's: wait for it instead of failing.
            const stored = await findChainTx(db, request.key).catch(() => undefined)
            if (stored) return { tx: stored, created: false }
            throw error
          })
      // The request's wait counts from here: the sync send is part of it.
      const storedAt = Date.now()
      sendOptions.onStored?.()
      if (tx.status === 'dropped') throw new TxDroppedError(tx)
      if (tx.status === 'mined' || tx.status === 'reverted') {
        const receipt = (await readReceipts(client, [tx.txHash])).get(tx.txHash)
        if (!receipt) throw rpcFailed('reading a receipt', new Error(`no receipt for the recorded transaction ${tx.txHash}`))
        return { ...toRecord(tx), receipt }
      }
      // Stored before (a retry, or another process): sent again only when no version is mined.
      const versions = created ? undefined : (await listTxVersions(db, [tx.idempotencyKey])).get(tx.idempotencyKey)
      const mined = versions ? (await readReceipts(client, versions.hashes).catch(() => new Map())).size > 0 : false
      if (!mined) {
        // The sync send waits at most until the request's deadline, and not past the time
        // after which a stuck transaction is replaced (the watcher does that, once it follows it).
        const waitMs = Math.min(timeoutMs - (Date.now() - storedAt), options.stuckAfterMs, SYNC_SEND_MAX_WAIT_MS)
        // A refused broadcast is not fatal: the watcher keeps sending until it lands.
        const receipt = await sendForReceipt(tx, waitMs).catch((error) => void log.warn({ err: error, nonce: tx.nonce }, 'broadcast refused; will retry'))
        sendOptions.onBroadcast?.()
        if (receipt) {
          // Stored before this answers, as the watcher's own look would (mined or reverted). If
          // the store cannot take it now, the watcher reads the receipt again and records it.
          const settled = await watcher.settle(tx, receipt).catch((error) => void log.warn({ err: error, nonce: tx.nonce }, 'could not record a receipt yet'))
          if (settled) return { ...toRecord(settled.tx), receipt: settled.receipt }
        }
      }
      // Signed just now: its age counts from the signature, as for a transaction read from the store.
      const followed = versions ?? { hashes: [tx.txHash], newestAgeMs: Date.now() - storedAt }
      const settled = await watcher.wait(tx, Math.max(1, timeoutMs - (Date.now() - storedAt)), followed)
      return { ...toRecord(settled.tx), receipt: settled.receipt }
    },
    async find(key) {
      const tx = await findChainTx(db, key)
      return tx && toRecord(tx)
    },
    // Nothing was sent by this process yet, so every open transaction is sent again (or
    // recorded, replaced, marked dropped), as one look of the watch loop would.
    resume: () => watcher.lookAtStore(),
    start: () => watcher.start(),
    stop: () => watcher.stop(),
    sweeps: () => watcher.sweeps(),
  }
}
