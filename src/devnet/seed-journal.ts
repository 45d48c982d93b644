import { createHash } from 'node:crypto'
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { callProvider, type JsonRpcHandler } from './edr-provider.ts'
import type { AllContractAddresses } from '../chain/contract-names.ts'

/**
 * The deployed and seeded devnet, kept as the journal of the state-changing requests the seed
 * made (EDR 0.22 has no state dump: hardhat_dumpState and anvil_dumpState are unsupported).
 * Replaying it in process takes a fraction of deploying through viem, and needs neither viem
 * nor the compiled contracts. Every request is replayed with its block's timestamp shifted by
 * the time since the recording, so the chain's history (30 days of DeFi, proposals in every
 * state, this week's burns) lands where a fresh seed would put it and the last block is the
 * wall clock. Transaction hashes do not depend on block time, so each replayed hash is checked
 * against the recorded one, and each transaction must succeed again; otherwise the caller
 * deploys afresh.
 */
export type SeedJournal = {
  format: typeof SEED_JOURNAL_FORMAT
  key: string
  /** Genesis time and wall clock (seconds) of the recording. */
  genesisTime: number
  nowSeconds: number
  entries: JournalEntry[]
  deployment: { contracts: AllContractAddresses; deployBlock: number; agentId: string }
}

type JournalEntry = {
  method: string
  params: unknown[]
  /** The transaction hash, for transactions. */
  hash?: string
  /** The last block this request mined, with its timestamp. */
  block?: { number: number; timestamp: number }
}

export const SEED_JOURNAL_FORMAT = 1
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const cacheDir = path.join(root, '.cache', 'devnet')

/** Requests that change nothing: not journaled. */
const READS = new Set([
  'eth_chainId', 'net_version', 'web3_clientVersion', 'eth_blockNumber', 'eth_call', 'eth_estimateGas', 'eth_gasPrice',
  'eth_maxPriorityFeePerGas', 'eth_feeHistory', 'eth_getBalance', 'eth_getCode', 'eth_getStorageAt', 'eth_getTransactionCount',
  'eth_getTransactionReceipt', 'eth_getTransactionByHash', 'eth_getBlockByNumber', 'eth_getBlockByHash', 'eth_getLogs', 'eth_accounts',
  // The replay stamps every block itself.
  'evm_setNextBlockTimestamp',
])
/** Requests replayed as they were. Anything else (evm_increaseTime, snapshots) makes the seed uncacheable. */
const WRITES = new Set([
  'eth_sendTransaction', 'eth_sendRawTransaction', 'hardhat_setCode', 'hardhat_setStorageAt', 'hardhat_setBalance', 'hardhat_setNonce',
  'hardhat_impersonateAccount', 'hardhat_stopImpersonatingAccount', 'evm_mine',
])

/**
 * Names one seed: the contracts, the deploy and seed code, the engine and DEX artifacts, the
 * agent URI written on chain, and the journal format. Any change records a new journal.
 */
export async function seedKey(agentUri: string): Promise<string> {
  const hash = createHash('sha256').update(JSON.stringify({ format: SEED_JOURNAL_FORMAT, agentUri }))
  const devnetDir = path.dirname(fileURLToPath(import.meta.url))
  const files = [
    ...(await readdir(path.join(root, 'contracts'))).filter((f) => f.endsWith('.sol')).sort().map((f) => path.join(root, 'contracts', f)),
    ...(await readdir(devnetDir)).filter((f) => /\.(ts|js)$/.test(f)).sort().map((f) => path.join(devnetDir, f)),
    path.join(root, 'src', 'chain', 'devnet-accounts.ts'),
  ]
  for (const file of files) hash.update(file.slice(root.length)).update(await readFile(file).catch(() => Buffer.alloc(0)))
  // The engine, compiler and DEX artifacts, by the exact versions package.json pins.
  const manifest = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> }
  hash.update(JSON.stringify(manifest.dependencies ?? {}))
  return hash.digest('hex').slice(0, 16)
}

export async function readSeedJournal(key: string): Promise<SeedJournal | undefined> {
  try {
    const journal = JSON.parse(await readFile(path.join(cacheDir, `${key}.json`), 'utf8')) as SeedJournal
    return journal.format === SEED_JOURNAL_FORMAT && journal.key === key ? journal : undefined
  } catch {
    return undefined
  }
}

export async function writeSeedJournal(journal: SeedJournal): Promise<void> {
  await mkdir(cacheDir, { recursive: true })
  const file = path.join(cacheDir, `${journal.key}.json`)
  const temp = `${file}.${process.pid}.tmp`
  await writeFile(temp, JSON.stringify(journal))
  await rename(temp, file)
}

/**
 * Wraps the provider the seed talks to: every state-changing request is journaled with the
 * block it mined. `entries()` is undefined when the seed did something the replay cannot redo.
 */
export async function recordSeed(provider: JsonRpcHandler): Promise<{ handler: JsonRpcHandler; entries(): JournalEntry[] | undefined }> {
  const entries: JournalEntry[] = []
  let replayable = true
  let lastBlock = Number((await callProvider(provider, 'eth_blockNumber')).result)
  const handler: JsonRpcHandler = {
    async handleRequest(json: string) {
      const request = JSON.parse(json) as { method: string; params?: unknown[] }
      const response = await provider.handleRequest(json)
      if (READS.has(request.method)) return response
      const body = (typeof response.data === 'string' ? JSON.parse(response.data) : response.data) as { result?: unknown; error?: unknown }
      if (!WRITES.has(request.method) || body.error) {
        replayable = false
        return response
      }
      const entry: JournalEntry = { method: request.method, params: request.params ?? [] }
      if (request.method.startsWith('eth_send')) entry.hash = body.result as string
      const { result: latest } = await callProvider(provider, 'eth_getBlockByNumber', ['latest', false])
      const block = latest as { number: string; timestamp: string }
      if (Number(block.number) > lastBlock) {
        entry.block = { number: Number(block.number), timestamp: Number(block.timestamp) }
        lastBlock = Number(block.number)
      }
      entries.push(entry)
      return response
    },
  }
  return { handler, entries: () => (replayable ? entries : undefined) }
}

/**
 * Replays a journal on a fresh provider created with genesis at `journal.genesisTime + shift`.
 * Returns false (the caller then deploys afresh on another provider) when any request fails,
 * a transaction hash differs, a transaction reverts, or the chain does not end at the
 * recorded block.
 */
export async function replaySeed(provider: JsonRpcHandler, journal: SeedJournal, shift: number): Promise<boolean> {
  const lastStamped = journal.entries.findLastIndex((e) => e.block)
  const hashes: string[] = []
  let previous = 0
  for (const [index, entry] of journal.entries.entries()) {
    if (entry.block) {
      // The seed's last block is stamped with the wall clock, as the seed itself does: later
      // blocks follow real time (the recording's own duration is not added on top).
      const shifted = entry.block.timestamp + shift
      const stamp = Math.max(previous, index === lastStamped ? Math.floor(Date.now() / 1000) : shifted)
      previous = stamp
      const { error } = await callProvider(provider, 'evm_setNextBlockTimestamp', [`0x${stamp.toString(16)}`])
      if (error) return false
    }
    const { result, error } = await callProvider(provider, entry.method, entry.method === 'evm_mine' ? [] : entry.params)
    if (error) return false
    if (entry.hash) {
      if (result !== entry.hash) return false
      hashes.push(entry.hash)
    }
  }
  for (const hash of hashes) {
    const { result } = await callProvider(provider, 'eth_getTransactionReceipt', [hash])
    if ((result as { status?: string } | null)?.status !== '0x1') return false
  }
  const { result: blockNumber } = await callProvider(provider, 'eth_blockNumber')
  return Number(blockNumber) === journal.deployment.deployBlock
}
