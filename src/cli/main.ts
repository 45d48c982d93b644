/**
 * burn-to-create: the service from a terminal. Talks only to the public HTTP API and signs with
 * a local key; see `burn-to-create help`.
 */
import { parseArgs } from 'node:util'
import { ApiError } from './api.ts'
import { UsageError } from './errors.ts'
import { createSession, parseGlobalOptions } from './session.ts'
import { WalletError, shortMessage } from './wallet.ts'
import { looksmaxx } from './commands/looksmaxx.ts'
import { chat, plan, price, wallet } from './commands/reads.ts'
import { gaslessBurn, stake, vote } from './commands/writes.ts'
import { feedback, limits, receipt } from './commands/receipts.ts'

export const HELP = `burn-to-create <command> [options]

Commands
  looksmaxx --image <file> [--eth <amount>]   swap if needed, burn, pay 1 USDm, mint your portrait;
            [--burn-tx <hash> --dev-tx <hash>]  verifies and prints its two signed receipts
                                              (--burn-tx/--dev-tx: reuse burns already made)
  receipt <burnTxHash>                        verify and print a looksmaxx's receipts
  feedback <burnTxHash> [--score <n>] [--tag <tag1>]
                                              rate the service (ERC-8004) with the receipts as proof
                                              (default 100, tag starred)
  limits [--daily-eth <amount|off>] [--daily-usdm <amount|off>]
                                              show or set the daily spend caps of a wallet
  price                                       token price and what a portrait costs
  plan [--address <0x..>] [--eth <amount>]    the ordered looksmaxx plan for a wallet
  wallet [--address <0x..>]                   balances and burn eligibility
  gasless-burn                                burn 225,000 tokens; the service pays the gas
  stake <amount> [--venue mogger|jester] [--action stake|unstake|claim]
  vote <proposalId> [--support for|against|abstain]
  chat <message...> [--address <0x..>]       ask in plain English (about --address, or your wallet)

Options
  --url <url>       the service (env BURN_TO_CREATE_URL, default http://127.0.0.1:3000)
  --key <hex>       private key (env BURN_TO_CREATE_KEY); never printed
  --account <n>     a devnet account index (local devnet only; default 5 there)
  --rpc <url>       RPC to send with (default: the one the service advertises)
  --json            print the result as JSON on stdout (progress goes to stderr); a failure
                    prints {"error":{"code","message",...}} there
  --max-eth <amount>   the most ETH this command may send (swap value; gas not counted)
  --max-usdm <amount>  the most USDm this command may pay (x402)
  -h, --help        this help

Spend caps: --max-eth, --max-usdm and the daily caps (limits; kept per wallet and UTC day in
BURN_TO_CREATE_STATE, default ~/.local/state/burn-to-create/state.json) are checked against the
whole command before its first transaction; over a cap nothing is sent and the exit code is 2
(MAX_ETH_EXCEEDED, MAX_USDM_EXCEEDED, DAILY_ETH_EXCEEDED, DAILY_USDM_EXCEEDED).

Exit codes: 0 done, 1 the service, the chain or the wallet refused, 2 a usage mistake or a cap.
`

const options = {
  url: { type: 'string' },
  key: { type: 'string' },
  account: { type: 'string' },
  rpc: { type: 'string' },
  json: { type: 'boolean', default: false },
  image: { type: 'string' },
  eth: { type: 'string' },
  'burn-tx': { type: 'string' },
  'dev-tx': { type: 'string' },
  address: { type: 'string' },
  venue: { type: 'string', default: 'mogger' },
  action: { type: 'string', default: 'stake' },
  support: { type: 'string' },
  'max-eth': { type: 'string' },
  'max-usdm': { type: 'string' },
  'daily-eth': { type: 'string' },
  'daily-usdm': { type: 'string' },
  score: { type: 'string' },
  tag: { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
} as const

export async function main(argv: string[]): Promise<number> {
  // Known before parsing, so that even a malformed command line answers in JSON.
  const json = argv.includes('--json')
  let parsed
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true })
  } catch (error) {
    return report(new UsageError((error as Error).message), json)
  }
  const { values: v, positionals } = parsed
  const [command, ...rest] = positionals
  if (v.help || command === 'help') {
    process.stdout.write(HELP)
    return 0
  }
  if (!command) {
    // A usage mistake: the help goes to stderr with the exit code, stdout stays empty.
    if (json) process.stdout.write(`${JSON.stringify(errorBody(new UsageError('no command given')), null, 2)}\n`)
    process.stderr.write(HELP)
    return 2
  }
  try {
    const s = createSession(parseGlobalOptions(v))
    const signer = v.key ?? process.env.BURN_TO_CREATE_KEY ?? v.account
    switch (command) {
      case 'looksmaxx':
        if (!v.image) throw new UsageError('looksmaxx needs --image <file> (a JPEG, PNG or WebP portrait, at most 4 MB)')
        await looksmaxx(s, { image: v.image, eth: v.eth, burnTx: v['burn-tx'], devTx: v['dev-tx'] })
        break
      case 'price':
        await price(s)
        break
      case 'plan':
        await plan(s, { address: v.address, eth: v.eth })
        break
      case 'wallet':
        await wallet(s, { address: v.address })
        break
      case 'gasless-burn':
        await gaslessBurn(s)
        break
      case 'stake':
        await stake(s, { amount: rest[0], venue: v.venue, action: v.action })
        break
      case 'vote':
        await vote(s, { proposalId: rest[0], support: v.support })
        break
      case 'receipt':
        await receipt(s, rest[0])
        break
      case 'feedback':
        await feedback(s, rest[0], { score: v.score, tag: v.tag })
        break
      case 'limits':
        await limits(s, { dailyEth: v['daily-eth'], dailyUsdm: v['daily-usdm'], address: v.address })
        break
      case 'chat': {
        const message = rest.join(' ').trim()
        if (!message) throw new UsageError('chat needs a message, e.g. chat "what does a portrait cost?"')
        const address = v.address ?? (signer ? (await s.wallet()).address : undefined)
        await chat(s, message, { address })
        break
      }
      default:
        throw new UsageError(`unknown command "${command}"`)
    }
    return 0
  } catch (error) {
    return report(error, json)
  }
}

/** The error as the service writes its own ({"error":{"code","message",...}}), for --json. */
export function errorBody(error: unknown): { error: Record<string, unknown> } {
  if (error instanceof ApiError) {
    const served = (error.body as { error?: Record<string, unknown> } | undefined)?.error
    return {
      error: {
        ...(served && typeof served === 'object' ? served : {}),
        code: error.code,
        message: served && typeof served.message === 'string' ? served.message : error.message,
        ...(error.status ? { status: error.status } : {}),
        ...(error.requestId ? { requestId: error.requestId } : {}),
        ...(error.hints.length ? { hints: error.hints } : {}),
      },
    }
  }
  if (error instanceof UsageError || error instanceof WalletError) return { error: { code: error.code, message: error.message } }
  return { error: { code: 'FAILED', message: shortMessage(error) } }
}

/** Writes the error (on stderr; with --json also its JSON on stdout) and returns the exit code. */
function report(error: unknown, json: boolean): number {
  if (json) process.stdout.write(`${JSON.stringify(errorBody(error), null, 2)}\n`)
  if (error instanceof UsageError) {
    process.stderr.write(`error${error.code === 'USAGE' ? '' : ` ${error.code}`}: ${error.message}\n\nRun burn-to-create help for usage.\n`)
    return 2
  }
  if (error instanceof ApiError) {
    // A refusal about a submission that exists (409 BURN_ALREADY_USED) links to its status.
    const statusUrl = typeof error.details?.statusUrl === 'string' ? [`status: ${error.details.statusUrl}`] : []
    const hints = [...statusUrl, ...error.hints].map((line) => `\n${line}`).join('')
    process.stderr.write(`error ${error.code}${error.status ? ` (HTTP ${error.status})` : ''}: ${error.message}${error.requestId ? `\nrequest id: ${error.requestId}` : ''}${hints}\n`)
    return 1
  }
  if (error instanceof WalletError) {
    process.stderr.write(`error ${error.code}: ${error.message}\n`)
    return 1
  }
  process.stderr.write(`error: ${shortMessage(error)}\n`)
  return 1
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('/src/cli/main.ts')) {
  main(process.argv.slice(2)).then((code) => process.exit(code))
}
