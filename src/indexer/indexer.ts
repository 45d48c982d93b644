import { BlockNotFoundError, toHex, zeroAddress, type Log } from 'viem'
import { randomUUID } from 'node:crypto'
import { acquireLease, releaseLease } from '../store/indexer-leases.ts'
import type { Logger as PinoLogger } from 'pino'
import type { Chain } from '../chain/clients.ts'
import type { Db } from '../store/db.ts'
import type { EventBus } from '../adapters/bus/port.ts'
import { decodeIndexedLogs, WATCHED_EVENTS, type BurnLeg } from './decode-logs.ts'
import { publishEvent } from '../events/publish-event.ts'
import { burnEventKey, burnEventOfForeignMint, burnEventOfTransfer, burnTransferKey } from '../events/burn-event.ts'
import { isServiceMint, serviceTxsAmong } from '../store/service-txs.ts'
import { TOPICS, type Freshness } from '../cache/freshness.ts'
import { rpcFailed } from '../chain/upstream-error.ts'
import { classifyLogsRefusal, createLogSpan } from './log-pages.ts'
import { createBatchClient } from '../chain/sender/batch-client.ts'
import { DEFI_TOPICS, decodeDefiActivity, defiLogAddresses } from './defi-activity.ts'
import { deleteDefiActivityAfter, insertDefiActivity } from '../store/defi-activity.ts'
import { deleteIndexedBlocksAfter, getCursor, listIndexedBlocks, pruneIndexedBlocksBelow, saveCursor, saveIndexedBlock } from '../store/indexer-cursor.ts'
import { deleteTokenBurnsAfter, insertTokenBurns } from '../store/token-burns.ts'
import { deleteNftTransfersAfter, insertNftTransfers, recomputeNftOwner } from '../store/nft-transfers.ts'

const CURSOR = 'main'
/** Recent block hashes kept to find a fork point; deeper reorgs than this are not expected. */
const KEEP_BLOCKS = 256

export type Indexer = {
  /** Indexes up to the confirmed head once; returns the block it reached. */
  sync(): Promise<bigint>
  start(): void
  /** Starts the next pass now instead of after the poll interval (a read waits for a block). */
  poke(): void
  stop(): Promise<void>
}

export type IndexerOptions = {
  db: Db
  chain: Chain
  bus: EventBus
  /** Told of every change the indexer applies, so cached answers that depend on it are renewed. */
  fresh: Freshness
  log: PinoLogger
  startBlock: bigint
  confirmations: number
  /** Between passes when nothing pokes it. */
  pollMs: number
  /** A longer wait after a pass that succeeded, while something else pokes it at each block (a new-head subscription). */
  quietPollMs?: () => number | undefined
  /** Largest eth_getLogs range; smaller once the RPC's refusals say it caps ranges or results. */
  pageSize: number
}

/**
 * Follows the chain's logs into the database: burn legs and portrait-NFT transfers. It resumes
 * from its cursor, pages eth_getLogs, stays `confirmations` blocks behind the head, and on a
 * reorg rolls back to the last block whose hash still matches, then indexes again.
 */
export function createIndexer(options: IndexerOptions): Indexer {
  const { db, chain, log } = options
  let running = false
  let loop: Promise<void> | undefined
  let timer: NodeJS.Timeout | undefined
  let wake: (() => void) | undefined
  let poked = false
  const span = createLogSpan(options.pageSize)
  let lastPassFailed = false
  const pollMs = () => (lastPassFailed ? options.pollMs : (options.quietPollMs?.() ?? options.pollMs))
  const headers = createBatchClient(chain)
  const owner = `indexer-${randomUUID()}`
  const addresses = {
    token: chain.contracts.token,
    nft: chain.contracts.nft,
    fundWallet: chain.fundWallet,
    pool: chain.contracts.pool,
    referral: chain.contracts.referral,
    reputationRegistry: chain.contracts.reputationRegistry,
    names: chain.contracts.names,
  }
  const watchedAddresses = [addresses.token, addresses.nft, addresses.pool, addresses.referral, addresses.reputationRegistry, addresses.names]

  const cursor = () => getCursor(db, CURSOR)

  /**
   * The block at this height, or undefined when the chain has none (it got shorter). A failed
   * read throws: taken for a missing block, one RPC hiccup would roll the index back.
   */
  async function blockOrMissing(number: bigint) {
    try {
      return await headers.getBlock({ blockNumber: number })
    } catch (error) {
      if (error instanceof BlockNotFoundError) return undefined
      throw error
    }
  }

  /** The last stored block still on the chain; everything after it is rolled back. */
  async function rollbackToForkPoint(): Promise<void> {
    let forkPoint: { number: bigint; hash: string } | undefined
    for (const stored of await listIndexedBlocks(db)) {
      const block = await blockOrMissing(stored.number).catch((cause) => {
        throw rpcFailed('looking for the fork point', cause)
      })
      if (block?.hash === stored.hash) {
        forkPoint = stored
        break
      }
    }
    const to = forkPoint ?? { number: options.startBlock - 1n, hash: '' }
    log.warn({ forkPoint: to.number.toString() }, 'chain reorganised: rolling the index back')
    await db.transaction(async (tx) => {
      await deleteTokenBurnsAfter(tx, to.number)
      await deleteDefiActivityAfter(tx, to.number)
      for (const tokenId of await deleteNftTransfersAfter(tx, to.number)) await recomputeNftOwner(tx, tokenId)
      await deleteIndexedBlocksAfter(tx, to.number)
      await saveCursor(tx, CURSOR, to)
    })
    // Whatever was read from the orphaned blocks is gone: every answer built on it is renewed.
    await options.fresh.changed([...TOPICS])
  }

  const logFilter = {
    address: [...watchedAddresses, ...defiLogAddresses(chain.contracts)],
    topics: [[...new Set([...Object.values(WATCHED_EVENTS), ...DEFI_TOPICS])]],
  }

  /**
   * The logs of [from, to], or of a shorter range starting at `from` when the provider caps
   * ranges or results: its refusal says how much it takes (or suggests a range), and that is
   * asked next instead of the same call again. Returns the block the logs reach.
   */
  async function readLogs(from: bigint, to: bigint): Promise<{ logs: Log[]; to: bigint }> {
    let refused = false
    for (;;) {
      try {
        const raw = await chain.client.request({ method: 'eth_getLogs', params: [{ ...logFilter, fromBlock: toHex(from), toBlock: toHex(to) }] })
        if (!refused) span.answered()
        return { logs: raw.map((l) => ({ ...l, blockNumber: BigInt(l.blockNumber!), logIndex: Number(l.logIndex) })) as unknown as Log[], to }
      } catch (cause) {
        const refusal = classifyLogsRefusal(cause, from)
        const asked = Number(to - from + 1n)
        if (!refusal || asked <= 1) throw rpcFailed('reading logs', cause)
        refused = true
        const capBefore = span.cap()
        const next = refusal.kind === 'range' ? span.refusedRange(asked, refusal, from) : span.refusedResults(asked, refusal, from)
        if (span.cap() !== capBefore) log.info({ maxBlocks: span.cap() }, 'the RPC caps eth_getLogs ranges; reading in ranges of that size')
        to = from + BigInt(Math.min(next, asked - 1)) - 1n
      }
    }
  }

  async function indexRange(from: bigint, to: bigint, logs: Log[]): Promise<void> {
    const { burns, nftTransfers, changed, referralRewards } = decodeIndexedLogs(logs as never, addresses)
    const activity = decodeDefiActivity(logs as never, chain.contracts)
    const blockNumbers = [...new Set([...burns, ...nftTransfers, ...activity].map((e) => e.blockNumber)), to]
    // Nodes that put the block's timestamp in its logs (geth 1.16+, reth) spare the header
    // reads; the others' headers come in one JSON-RPC batch, not a request per block.
    const blocks = new Map<bigint, { hash: `0x${string}`; timestamp: bigint }>()
    for (const l of logs as Array<Log & { blockTimestamp?: string }>) {
      if (l.blockTimestamp && l.blockHash) blocks.set(l.blockNumber!, { hash: l.blockHash, timestamp: BigInt(l.blockTimestamp) })
    }
    const missing = blockNumbers.filter((n) => !blocks.has(n))
    const read = await Promise.all(missing.map(async (n) => [n, await headers.getBlock({ blockNumber: n })] as const)).catch((cause) => {
      throw rpcFailed('reading block headers', cause)
    })
    for (const [n, block] of read) blocks.set(n, { hash: block.hash!, timestamp: block.timestamp })
    const time = (n: bigint) => new Date(Number(blocks.get(n)!.timestamp) * 1000)
    const mints = nftTransfers.filter((t) => t.from === zeroAddress)
    await db.transaction(async (tx) => {
      await insertTokenBurns(tx, burns.map((b) => ({ ...b, blockTime: time(b.blockNumber) })))
      await insertNftTransfers(tx, nftTransfers.map((t) => ({ ...t, blockTime: time(t.blockNumber) })))
      await insertDefiActivity(tx, activity, time)
      for (const tokenId of new Set(nftTransfers.map((t) => t.tokenId.toString()))) await recomputeNftOwner(tx, tokenId)
      // Only the newest blocks can be reorganised away (older ones would be pruned at once).
      for (const [number, block] of blocks) if (number > to - BigInt(KEEP_BLOCKS)) await saveIndexedBlock(tx, { number, hash: block.hash! })
      await pruneIndexedBlocksBelow(tx, to - BigInt(KEEP_BLOCKS))
      await saveCursor(tx, CURSOR, { number: to, hash: blocks.get(to)!.hash! })
    })
    // Cached answers that depend on what changed are renewed on every instance, before the
    // stream hears of it: a client that reads on a burn event sees the burn.
    await options.fresh.changed([...changed, ...(activity.length ? (['defi'] as const) : [])], to)
    // Every burn reaches the stream: a transaction sending service tokens to the dead address
    // (a plain transfer, a gasless relay, a referral burn), once, whoever sees it first.
    const byTx = groupByTx(burns)
    const serviceTxs = await serviceTxsAmong(db, [...byTx.keys()].filter((txHash) => !referralRewards.has(txHash)))
    for (const [txHash, legs] of byTx) {
      const dead = legs.filter((l) => l.leg === 'dead')
      if (dead.length === 0) continue
      const reward = referralRewards.get(txHash)
      const source = reward !== undefined ? 'referral' : serviceTxs.has(txHash.toLowerCase()) ? 'gasless' : 'transfer'
      const amountWei = legs.reduce((sum, l) => sum + l.value, reward ?? 0n)
      const data = burnEventOfTransfer({ txHash, burner: dead[0]!.sender, amountWei, source, at: time(dead[0]!.blockNumber) })
      await publishEvent(options, 'burn', data, burnTransferKey(txHash)).catch((error) => log.warn({ err: error }, 'could not publish an indexed burn'))
    }
    // Mints the service did not make (another deployment, a script) reach the stream too, in
    // the shape of the pipeline's burn events; the pipeline announces its own.
    for (const mint of mints) {
      if (await isServiceMint(db, mint.txHash)) continue
      const data = burnEventOfForeignMint({ txHash: mint.txHash, to: mint.to, tokenId: mint.tokenId, at: time(mint.blockNumber) })
      await publishEvent(options, 'burn', data, burnEventKey(mint.tokenId)).catch((error) => log.warn({ err: error }, 'could not publish an indexed mint'))
    }
  }

  /** Passes run one at a time (the loop's, a test's or a caller's): two would index one range twice. */
  let passes: Promise<unknown> = Promise.resolve()
  function sync(): Promise<bigint> {
    const pass = passes.then(syncOnce)
    passes = pass.catch(() => undefined)
    return pass
  }

  async function syncOnce(): Promise<bigint> {
    let at = await cursor()
    // The head and the cursor's block travel in one batch: a pass woken by a head costs two round trips (this, the logs).
    let head: bigint
    let cursorBlock: { hash: string | null } | undefined
    try {
      ;[head, cursorBlock] = await Promise.all([
        headers.getBlockNumber({ cacheTime: 0 }),
        at?.hash ? blockOrMissing(at.number) : undefined,
      ])
    } catch (cause) {
      throw rpcFailed('reading the head', cause)
    }
    const target = head - BigInt(options.confirmations)
    if (at && at.hash && cursorBlock?.hash !== at.hash) {
      await rollbackToForkPoint()
      at = await cursor()
    }
    let from = at ? at.number + 1n : options.startBlock
    while (from <= target) {
      const end = from + BigInt(span.span()) - 1n
      const { logs, to } = await readLogs(from, end < target ? end : target)
      await indexRange(from, to, logs)
      from = to + 1n
    }
    if (from > target) options.fresh.reached(target)
    return target
  }

  /** When this instance last took or renewed the lease (performance.now()), and for how long. */
  let held: { at: number; ms: number } | undefined
  /**
   * Instances sharing a database take turns: the lease holder indexes, the others wait. A pass
   * woken by every head skips the renewal while a third of the lease is not yet over (the
   * lease runs from the statement, which started after `at`): one write less per block.
   */
  async function holdLease(): Promise<boolean> {
    if (held && performance.now() - held.at < held.ms / 3) return true
    // The lease outlives two quiet polls, so a holder that is only woken by heads keeps it.
    const ms = Math.max(10_000, options.pollMs * 5, pollMs() * 2)
    const at = performance.now()
    const ok = await acquireLease(db, CURSOR, owner, ms)
    held = ok ? { at, ms } : undefined
    return ok
  }

  return {
    sync,
    start() {
      if (running) return
      running = true
      loop = (async () => {
        while (running) {
          // A poke during this pass is served by the next one, at once (a new head may have come after this pass read the head).
          poked = false
          try {
            lastPassFailed = false
            if (await holdLease()) await sync()
          } catch (error) {
            lastPassFailed = true
            log.warn({ err: error }, 'indexer pass failed; retrying')
          }
          if (!running) break
          if (poked) continue
          await new Promise<void>((resolve) => {
            wake = resolve
            timer = setTimeout(resolve, pollMs())
          })
        }
      })()
    },
    poke() {
      poked = true
      clearTimeout(timer)
      wake?.()
    },
    async stop() {
      running = false
      clearTimeout(timer)
      wake?.()
      await loop
      // Another instance takes over at once instead of after the lease runs out.
      held = undefined
      await releaseLease(db, CURSOR, owner).catch((error) => log.warn({ err: error }, 'could not release the indexer lease; it expires on its own'))
    },
  }
}

function groupByTx(legs: BurnLeg[]): Map<string, BurnLeg[]> {
  const byTx = new Map<string, BurnLeg[]>()
  for (const leg of legs) byTx.set(leg.txHash, [...(byTx.get(leg.txHash) ?? []), leg])
  return byTx
}
