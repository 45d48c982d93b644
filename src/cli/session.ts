/**
 * What every command gets: the API, the progress display, the chain the service is on (read
 * once from the agent index) and the wallet, opened only by commands that sign.
 */
import { isHex, type Hex } from 'viem'
import { createApi, type Api } from './api.ts'
import { UsageError } from './errors.ts'
import { createProgress, type Progress } from './progress.ts'
import { connectWallet, resolveAccount, type ChainInfo, type PlannedTx, type Wallet } from './wallet.ts'
import { createSpendState, parseAmount, type CommandCaps, type SpendState } from './spend.ts'

export const DEFAULT_URL = 'http://127.0.0.1:3000'

export type GlobalOptions = {
  url: string
  key?: Hex
  account?: number
  rpc?: string
  json: boolean
  /** --max-eth and --max-usdm: the most this command may spend. */
  caps: CommandCaps
  /** The options to repeat in a command the CLI prints for the user to run next (never the key). */
  repeat: string[]
}

/** An http(s) URL, or a usage error naming where it came from (`--url`, `BURN_TO_CREATE_URL`). */
function parseUrl(value: string, source: string, example: string): string {
  let url: URL | undefined
  try {
    url = new URL(value)
  } catch {
    // reported below
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new UsageError(`${source} ${JSON.stringify(value)} is not an http(s) URL (e.g. ${example})`, 'INVALID_URL')
  }
  return value
}

/**
 * The global options, checked before anything is sent: every malformed one is a usage error
 * (exit 2) naming the option or the environment variable it came from.
 */
export function parseGlobalOptions(
  flags: { url?: string; key?: string; account?: string; rpc?: string; json?: boolean; 'max-eth'?: string; 'max-usdm'?: string },
  env: NodeJS.ProcessEnv = process.env,
): GlobalOptions {
  const repeat: string[] = []
  const url = flags.url !== undefined ? parseUrl(flags.url, '--url', DEFAULT_URL) : env.BURN_TO_CREATE_URL ? parseUrl(env.BURN_TO_CREATE_URL, 'BURN_TO_CREATE_URL', DEFAULT_URL) : DEFAULT_URL
  if (flags.url !== undefined) repeat.push('--url', flags.url)
  const rpc = flags.rpc !== undefined ? parseUrl(flags.rpc, '--rpc', 'http://127.0.0.1:8545') : undefined
  if (rpc) repeat.push('--rpc', rpc)
  let key: Hex | undefined
  const keyText = flags.key ?? env.BURN_TO_CREATE_KEY
  if (keyText !== undefined && keyText !== '') {
    const source = flags.key !== undefined ? '--key' : 'BURN_TO_CREATE_KEY'
    const hex = keyText.startsWith('0x') ? keyText : `0x${keyText}`
    if (!isHex(hex) || hex.length !== 66) throw new UsageError(`${source} must be a private key: 32 bytes of hex (64 hex digits, 0x optional)`, 'INVALID_KEY')
    key = hex
    // The key itself is never printed: the user puts theirs back in.
    if (flags.key !== undefined) repeat.push('--key', '<your key>')
  }
  let account: number | undefined
  if (flags.account !== undefined) {
    if (!/^\d+$/.test(flags.account)) throw new UsageError(`--account takes a devnet account index (0, 1, 2, ...), not ${JSON.stringify(flags.account)}`, 'INVALID_ACCOUNT')
    account = Number(flags.account)
    if (!key) repeat.push('--account', String(account))
  }
  const caps = { maxEth: parseAmount('--max-eth', flags['max-eth'], 'ETH'), maxUsdm: parseAmount('--max-usdm', flags['max-usdm'], 'USDm') }
  if (flags['max-eth'] !== undefined) repeat.push('--max-eth', flags['max-eth'])
  if (flags['max-usdm'] !== undefined) repeat.push('--max-usdm', flags['max-usdm'])
  return { url, key, account, rpc, json: Boolean(flags.json), caps, repeat }
}

export type Session = {
  api: Api
  progress: Progress
  json: boolean
  /** Options to repeat in a printed follow-up command (`--account 4`, `--url …`); never the key. */
  repeat: string[]
  chain(): Promise<ChainInfo>
  wallet(): Promise<Wallet & { source: string }>
  /** --max-eth and --max-usdm of this command. */
  caps: CommandCaps
  /** The daily caps and today's spending (the CLI's state file). */
  spend: SpendState
  /** Sends a planned transaction from the wallet, its ETH value counted in today's spending first. */
  send(tx: PlannedTx): ReturnType<Wallet['send']>
  /** Prints the result: JSON on stdout with --json, otherwise the human lines. */
  print(result: unknown, human: string[]): void
}

export function createSession(opts: GlobalOptions): Session {
  const api = createApi(opts.url)
  const progress = createProgress({ json: opts.json })
  let chainInfo: Promise<ChainInfo> | undefined
  let wallet: Promise<Wallet & { source: string }> | undefined
  const spend = createSpendState()
  const getWallet = () =>
    (wallet ??= chain().then((info) => {
      const { account, source } = resolveAccount({ key: opts.key, account: opts.account, chain: info })
      return { ...connectWallet(info, account, opts.rpc), source }
    }))
  // The chain as the service advertises it: whether it is a local devnet is decided from this
  // RPC (docs/agents/cli.md: --account), whatever --rpc the transactions are sent through.
  const chain = () => (chainInfo ??= api.get('/api/agent').then(({ body }) => ({ name: body.chain.name, chainId: body.chain.chainId, rpc: body.chain.rpc })))
  return {
    api,
    progress,
    json: opts.json,
    repeat: opts.repeat,
    caps: opts.caps,
    spend,
    chain,
    wallet: getWallet,
    async send(tx) {
      const w = await getWallet()
      await spend.record(w.address, { eth: BigInt(tx.value ?? 0) })
      return w.send(tx)
    },
    print(result, human) {
      if (opts.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`)
      else process.stdout.write(`${human.join('\n')}\n`)
    },
  }
}

/** A command line the user can paste: arguments with spaces or quotes are single-quoted. */
export function commandLine(args: string[]): string {
  return ['burn-to-create', ...args].map((a) => (/^[\w@%+=:,./<>-]+$/.test(a) ? a : `'${a.replaceAll("'", "'\\''")}'`)).join(' ')
}
