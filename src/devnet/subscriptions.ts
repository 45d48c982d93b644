import { randomBytes } from 'node:crypto'
import type { JsonRpcError } from './edr-provider.ts'
import { JsonRpcFailure, type Subscriptions } from './rpc-server.ts'

type Read = (method: string, params: unknown[]) => Promise<{ result?: unknown; error?: JsonRpcError }>
type LogFilter = { address?: string | string[]; topics?: unknown[] }
type Subscription = { kind: 'newHeads' | 'logs'; filter: LogFilter; send(result: unknown): void }
type Block = { number: string; hash: string; transactions?: unknown; [key: string]: unknown }

/** Methods that never make a block: no look at the head after them. */
const READS = new Set([
  'eth_blockNumber', 'eth_chainId', 'net_version', 'web3_clientVersion', 'eth_call', 'eth_estimateGas', 'eth_getBalance',
  'eth_getCode', 'eth_getStorageAt', 'eth_getTransactionCount', 'eth_getBlockByNumber', 'eth_getBlockByHash',
  'eth_getLogs', 'eth_getTransactionReceipt', 'eth_getTransactionByHash', 'eth_gasPrice', 'eth_maxPriorityFeePerGas',
  'eth_feeHistory', 'eth_simulateV1', 'eth_createAccessList', 'devnet_info', 'eth_subscribe', 'eth_unsubscribe',
  'eth_getBlockReceipts', 'eth_syncing', 'debug_traceTransaction', 'debug_traceCall',
])

/** Heads announced at most per check: a `hardhat_mine` of thousands of blocks announces its last ones. */
const MAX_HEADS_PER_CHECK = 64

/**
 * `eth_subscribe` newHeads and logs for the devnet's websocket endpoint, as geth serves them.
 * The engine's own subscriptions would also announce the blocks a simulation mines on a
 * snapshot (src/devnet/simulate-v1.ts) and reverts; so the chain is read through the gate
 * instead, after every answered request (`changed`), and only blocks that stay are announced.
 * A revert followed by new blocks announces the new heads (logs are not re-sent as removed).
 */
export function createSubscriptions(read: Read): Subscriptions {
  const subscriptions = new Map<string, Subscription>()
  let last: { number: number; hash: string } | undefined
  let checking: Promise<void> | undefined
  let again = false

  const call = async <T>(method: string, params: unknown[]): Promise<T> => {
    const { result, error } = await read(method, params)
    if (error) throw new JsonRpcFailure(error.code, error.message, error.data)
    return result as T
  }

  async function check(): Promise<void> {
    const head = Number(await call<string>('eth_blockNumber', []))
    const headBlock = await call<Block>('eth_getBlockByNumber', [`0x${head.toString(16)}`, false])
    if (last && head === last.number && headBlock.hash === last.hash) return
    // After a revert (a lower or a different head) only the new head is new.
    const first = last && head > last.number && (await call<Block>('eth_getBlockByNumber', [`0x${last.number.toString(16)}`, false]))?.hash === last.hash ? last.number + 1 : head
    const from = Math.max(first, head - MAX_HEADS_PER_CHECK + 1)
    last = { number: head, hash: headBlock.hash }
    const heads: Block[] = []
    for (let n = from; n < head; n++) heads.push(await call<Block>('eth_getBlockByNumber', [`0x${n.toString(16)}`, false]))
    heads.push(headBlock)
    const subs = [...subscriptions.values()]
    for (const block of heads) {
      const { transactions: _transactions, ...header } = block
      for (const sub of subs) if (sub.kind === 'newHeads') sub.send(header)
    }
    for (const sub of subs) {
      if (sub.kind !== 'logs') continue
      const logs = await call<unknown[]>('eth_getLogs', [{ ...sub.filter, fromBlock: `0x${from.toString(16)}`, toBlock: `0x${head.toString(16)}` }])
      for (const log of logs) sub.send(log)
    }
  }

  /** Looks for new blocks after a request that may have made some; calls during a look make one more look after it. */
  function changed(method: string): void {
    if (subscriptions.size === 0 || READS.has(method)) return
    if (checking) {
      again = true
      return
    }
    checking = (async () => {
      do {
        again = false
        await check().catch(() => undefined)
      } while (again)
      checking = undefined
    })()
  }

  return {
    async subscribe(params: unknown[], send: (result: unknown) => void): Promise<string> {
      const [kind, filter] = params as [unknown, LogFilter | undefined]
      if (kind !== 'newHeads' && kind !== 'logs') throw new JsonRpcFailure(-32602, `unsupported subscription: ${String(kind)} (the devnet serves newHeads and logs)`)
      // Announcing starts from now: blocks mined while nobody listened are not news.
      if (subscriptions.size === 0) {
        const head = Number(await call<string>('eth_blockNumber', []))
        last = { number: head, hash: (await call<Block>('eth_getBlockByNumber', [`0x${head.toString(16)}`, false])).hash }
      }
      const id = `0x${randomBytes(16).toString('hex')}`
      subscriptions.set(id, { kind, filter: { address: filter?.address, topics: filter?.topics }, send })
      return id
    },
    unsubscribe(id: string): boolean {
      return subscriptions.delete(id)
    },
    changed,
  }
}
