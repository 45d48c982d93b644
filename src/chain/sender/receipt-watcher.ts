import type { PublicClient, TransactionReceipt } from 'viem'
import type { Logger } from 'pino'
import type { Db } from '../../store/db.ts'
import { findChainTx, listOpenTxs, listTxVersions, markDropped, recordReceipts, type MinedVersion, type StoredTx, type TxVersions } from '../../store/chain-txs.ts'
import { rpcFailed } from '../upstream-error.ts'
import { readReceipts } from './read-receipts.ts'
import { receiptTimedOut, TxDroppedError } from './errors.ts'
import { createPollLoop } from './poll-loop.ts'
import { coalesce } from '../../util/coalesce.ts'

export type Settled = { tx: StoredTx; receipt: TransactionReceipt }

export type ReceiptWatcherOptions = {
  /** How often the key's nonce on chain is read while a transaction is open (idle: never). */
  pollMs: number
  /** How often the store is read for open transactions of the key (only once started). */
  sweepMs: number
  /** A transaction whose newest version has waited this long is replaced. */
  stuckAfterMs: number
  /** An open transaction is sent again this often (a node may have dropped or refused it). */
  resendMs: number
}

export type ReceiptWatcher = {
  /**
   * Follows the open transaction `tx` until it is final: resolves with its receipt, rejects
   * with `TxDroppedError`, or with a retryable error after `timeoutMs` (it stays followed
   * while the watcher is started). `versions`: its stored versions when the caller read them
   * (a transaction signed just now has one).
   */
  wait(tx: StoredTx, timeoutMs: number, versions?: TxVersions): Promise<Settled>
  /**
   * Records `receipt`, the receipt of `tx` obtained by its sender (a sync send), exactly as a
   * look would, and answers every request waiting for `tx`. Resolves once it is stored.
   */
  settle(tx: StoredTx, receipt: TransactionReceipt): Promise<Settled>
  /** One look at every open transaction of the key in the store (after a restart). */
  lookAtStore(): Promise<void>
  start(): void
  stop(): Promise<void>
  /** Looks at the store finished so far: tests wait for it to advance instead of sleeping. */
  sweeps(): number
}

type Waiter = { resolve: (settled: Settled) => void; reject: (error: unknown) => void; timer: NodeJS.Timeout }

/** What the watcher knows of one open transaction. Times are this process's clock. */
type Entry = {
  tx: StoredTx
  /** Every signed version: any of them may be the one mined. */
  hashes: `0x${string}`[]
  signedAt: number
  sentAt: number
  replaceAgainAt: number
  /** Whether a look has read its receipts once (a new one is read at once, with the nonce). */
  seen: boolean
  waiters: Set<Waiter>
  /** Failed re-sends since the last warning, and when that was: a refusal repeated every few seconds is logged once a minute. */
  failedSends: number
  warnedAt: number
}

/** How often a repeated failure to send the same transaction is logged again. */
const REPEAT_WARNING_MS = 60_000

const byNonce = (a: Entry, b: Entry) => a.tx.nonce - b.tx.nonce

/**
 * One loop per key that settles every waiting request of the key together. Each look reads
 * the key's nonce on chain (`latest`) once: the transactions below it were included (ours, or
 * another transaction of the key took the nonce), so their receipts are read in one batch and
 * their waiters answered; those at or above it cannot have a receipt yet, so they cost nothing
 * but the timers that re-send and replace them (a transaction new to the watcher has its
 * receipt read once, with the nonce, as fast chains have mined it by then). Nothing open: no
 * RPC at all.
 *
 * Reading the nonce before the receipts is what makes `dropped` certain: a nonce used at the
 * reading stays used, and a version of ours mined by then has a receipt when read after it.
 */
export function createReceiptWatcher(deps: {
  db: Db
  client: PublicClient
  address: `0x${string}`
  log: Logger
  broadcast: (tx: StoredTx) => Promise<void>
  replace: (tx: StoredTx) => Promise<{ tx: StoredTx; replaced: boolean }>
  options: ReceiptWatcherOptions
}): ReceiptWatcher {
  const { db, client, address, log, options } = deps
  const entries = new Map<string, Entry>()
  let waiting = 0
  let started = false
  let sweepCount = 0
  let lastSweepAt = 0

  function follow(tx: StoredTx, versions: TxVersions | undefined, now: number, sentAt: number): Entry {
    const signedAt = now - (versions?.newestAgeMs ?? 0)
    let entry = entries.get(tx.idempotencyKey)
    if (!entry) {
      entry = { tx, hashes: [], signedAt, sentAt, replaceAgainAt: 0, seen: false, waiters: new Set(), failedSends: 0, warnedAt: 0 }
      entries.set(tx.idempotencyKey, entry)
    }
    // The store is the truth: another look or process may have replaced it meanwhile.
    entry.tx = tx
    if (versions) entry.signedAt = Math.max(entry.signedAt, signedAt)
    for (const hash of [tx.txHash, ...(versions?.hashes ?? [])]) if (!entry.hashes.includes(hash)) entry.hashes.push(hash)
    return entry
  }

  function end(entry: Entry, outcome: { settled: Settled } | { error: unknown }) {
    // Settled twice (a look and a sync send) or followed again since: only its own entry goes.
    if (entries.get(entry.tx.idempotencyKey) === entry) entries.delete(entry.tx.idempotencyKey)
    for (const waiter of entry.waiters) {
      clearTimeout(waiter.timer)
      waiting--
      if ('settled' in outcome) waiter.resolve(outcome.settled)
      else waiter.reject(outcome.error)
    }
    entry.waiters.clear()
  }

  async function refreshFromStore(): Promise<void> {
    const open = await listOpenTxs(db, address)
    // Nothing open (the usual sweep of an idle key): no second statement.
    const versions = open.length > 0 ? await listTxVersions(db, open.map((tx) => tx.idempotencyKey)) : new Map<string, TxVersions>()
    const now = Date.now()
    const keys = new Set<string>()
    for (const tx of open) {
      keys.add(tx.idempotencyKey)
      follow(tx, versions.get(tx.idempotencyKey) ?? { hashes: [tx.txHash], newestAgeMs: 0 }, now, 0)
    }
    // Final elsewhere (another process recorded it): nobody here waits, nothing to do.
    for (const [key, entry] of entries) if (!keys.has(key) && entry.waiters.size === 0) entries.delete(key)
  }

  /** The first of `hashes` with a receipt, as the version to record. */
  const minedVersion = (key: string, hashes: `0x${string}`[], receipts: Map<`0x${string}`, TransactionReceipt>): { version: MinedVersion; receipt: TransactionReceipt } | undefined => {
    const receipt = hashes.map((hash) => receipts.get(hash)).find(Boolean)
    if (!receipt) return undefined
    const status = receipt.status === 'success' ? 'mined' : 'reverted'
    return { receipt, version: { key, status, blockNumber: Number(receipt.blockNumber), gasUsed: receipt.gasUsed, txHash: receipt.transactionHash } }
  }

  // Receipts brought by sync sends of a burst: one statement for those that arrive together.
  const recordTogether = coalesce((versions: MinedVersion[]) => recordReceipts(db, versions))

  /**
   * Transactions whose nonce was used: the receipts found are recorded together (one
   * statement) and their waiters answered; each of the others is decided alone.
   */
  async function settleIncluded(included: Entry[], receipts: Map<`0x${string}`, TransactionReceipt>): Promise<void> {
    const found = included.map((entry) => ({ entry, mined: minedVersion(entry.tx.idempotencyKey, entry.hashes, receipts) }))
    const mined = found.filter((f) => f.mined !== undefined)
    const recorded = await recordReceipts(db, mined.map((f) => f.mined!.version))
    mined.forEach((f, i) => end(f.entry, { settled: { tx: recorded[i]!, receipt: f.mined!.receipt } }))
    for (const { entry, mined } of found) {
      if (mined) continue
      await settleUnseen(entry).catch((error) => log.warn({ err: error, nonce: entry.tx.nonce }, 'could not settle a stored transaction yet'))
    }
  }

  /** A transaction whose nonce was used by none of the versions this process knew: its receipt after all, or `dropped`. */
  async function settleUnseen(entry: Entry): Promise<void> {
    const key = entry.tx.idempotencyKey
    // Another process may have replaced it: its versions are read again (after the nonce)
    // before anything is decided.
    const unknown = ((await listTxVersions(db, [key])).get(key)?.hashes ?? []).filter((hash) => !entry.hashes.includes(hash))
    entry.hashes.push(...unknown)
    const late = unknown.length ? minedVersion(key, unknown, await readReceipts(client, unknown)) : undefined
    if (late) {
      const [tx] = await recordReceipts(db, [late.version])
      return end(entry, { settled: { tx: tx!, receipt: late.receipt } })
    }
    const dropped = await markDropped(db, key)
    if (dropped) log.error({ nonce: entry.tx.nonce, key, txHash: entry.tx.txHash }, 'the nonce of a stored transaction was used by another transaction of the key: dropped')
    const stored = dropped ?? (await findChainTx(db, key))
    if (stored?.status === 'dropped') return end(entry, { error: new TxDroppedError(stored) })
    // Recorded as mined elsewhere, but its receipt is not readable here yet: the next look.
  }

  /** Re-sends an open transaction now and then, and replaces it once stuck. */
  async function tend(entry: Entry, now: number): Promise<void> {
    if (now - entry.signedAt > options.stuckAfterMs) {
      if (now < entry.replaceAgainAt) return
      entry.replaceAgainAt = now + options.resendMs
      try {
        const previous = entry.tx.txHash
        const outcome = await deps.replace(entry.tx)
        entry.tx = outcome.tx
        if (!entry.hashes.includes(outcome.tx.txHash)) entry.hashes.unshift(outcome.tx.txHash)
        if (!outcome.replaced) return
        entry.signedAt = entry.sentAt = Date.now()
        log.warn({ nonce: entry.tx.nonce, previous, replacement: outcome.tx.txHash }, 'transaction stuck: replaced with a higher fee')
        await deps.broadcast(outcome.tx)
      } catch (error) {
        log.warn({ err: error, nonce: entry.tx.nonce }, 'could not replace a stuck transaction yet')
      }
      return
    }
    if (now - entry.sentAt > options.resendMs) {
      entry.sentAt = now
      await deps.broadcast(entry.tx).catch((error) => {
        entry.failedSends++
        if (now - entry.warnedAt < REPEAT_WARNING_MS) return
        // A key without gas, say, is refused the same way every resend: once a minute is enough to see it.
        log.warn({ err: error, nonce: entry.tx.nonce, failedSends: entry.failedSends, sender: deps.address }, 'could not send a stored transaction yet')
        entry.warnedAt = now
        entry.failedSends = 0
      })
    }
  }

  /** One look; `fromStore` also picks up the open transactions of the store (other requests, other processes). */
  async function look(fromStore: boolean): Promise<void> {
    if (fromStore) await refreshFromStore()
    if (entries.size > 0) {
      // A transaction new to the watcher is usually mined already on fast chains: its receipts
      // are read at once, with the nonce (one round trip). A receipt found is always the outcome.
      const unseen = [...entries.values()].filter((e) => !e.seen)
      const [used, early] = await Promise.all([
        client.getTransactionCount({ address, blockTag: 'latest' }).catch((cause) => {
          throw rpcFailed('reading the nonce of the key', cause)
        }),
        unseen.length > 0 ? readReceipts(client, unseen.flatMap((e) => e.hashes)) : new Map<`0x${string}`, TransactionReceipt>(),
      ])
      for (const entry of unseen) entry.seen = true
      const hasEarly = (e: Entry) => e.hashes.some((hash) => early.has(hash))
      const included = [...entries.values()].filter((e) => e.tx.nonce < used || hasEarly(e)).sort(byNonce)
      if (included.length > 0) {
        // The others' receipts are read after the nonce: that order makes `dropped` certain.
        const after = included.filter((e) => !hasEarly(e))
        const receipts = after.length > 0 ? await readReceipts(client, after.flatMap((e) => e.hashes)) : new Map<`0x${string}`, TransactionReceipt>()
        for (const [hash, receipt] of early) receipts.set(hash, receipt)
        await settleIncluded(included, receipts)
      }
      const now = Date.now()
      // In nonce order, so that re-sent transactions reach the node without gaps.
      for (const entry of [...entries.values()].sort(byNonce)) if (entry.tx.nonce >= used) await tend(entry, now)
    }
    if (fromStore) {
      lastSweepAt = Date.now()
      sweepCount++
    }
  }

  const loop = createPollLoop({
    intervalMs: options.pollMs,
    // Requests waiting keep the loop going even when the watcher is not started.
    active: () => started || waiting > 0,
    look: async () => {
      await look(started && Date.now() - lastSweepAt >= options.sweepMs)
      // Without a started watcher nobody follows what no request waits for.
      if (!started) for (const [key, entry] of entries) if (entry.waiters.size === 0) entries.delete(key)
    },
    onError: (error) => log.warn({ err: error }, 'could not look at the stored transactions yet'),
  })

  return {
    wait(tx, timeoutMs, versions) {
      const now = Date.now()
      const entry = follow(tx, versions, now, now)
      return new Promise<Settled>((resolve, reject) => {
        const waiter: Waiter = {
          resolve,
          reject,
          timer: setTimeout(() => {
            if (!entry.waiters.delete(waiter)) return
            waiting--
            reject(receiptTimedOut(entry.tx.txHash, timeoutMs))
          }, timeoutMs),
        }
        entry.waiters.add(waiter)
        waiting++
        // Looked at soon, together with every other waiter that arrives meanwhile.
        loop.wake()
      })
    },
    async settle(tx, receipt) {
      const { version } = minedVersion(tx.idempotencyKey, [receipt.transactionHash], new Map([[receipt.transactionHash, receipt]]))!
      const settled = { tx: await recordTogether(version), receipt }
      const entry = entries.get(tx.idempotencyKey)
      if (entry) end(entry, { settled })
      return settled
    },
    lookAtStore: () => loop.exclusive(() => look(true)),
    start() {
      if (started) return
      started = true
      loop.wake()
    },
    async stop() {
      started = false
      await loop.settle()
    },
    sweeps: () => sweepCount,
  }
}
