/**
 * burn-to-create: the service from a terminal. Talks only to the public HTTP API and signs with
 * a local key; see `burn-to-create help`.
 */
import { parseArgs } from 'node:util'
import { ApiError } from './api.ts'
import { createSession } from './session.ts'
import { WalletError, shortMessage } from './wallet.ts'
import { looksmaxx, UsageError } from './commands/looksmaxx.ts'
import { chat, plan, price, wallet } from './commands/reads.ts'
import { gaslessBurn, stake, vote } from './commands/writes.ts'

export const HELP = `burn-to-create <command> [options]

Commands
  looksmaxx --image <file> [--eth <amount>]   swap if needed, burn, pay 1 USDm, mint your portrait
            [--burn-tx <hash> --dev-tx <hash>]  reuse burns already made (retry a submission)
  price                                       token price and what a portrait costs
  plan [--address <0x..>] [--eth <amount>]    the ordered looksmaxx plan for a wallet
  wallet [--address <0x..>]                   balances and burn eligibility
  gasless-burn                                burn 225,000 tokens; the service pays the gas
  stake <amount> [--venue mogger|jester] [--action stake|unstake|claim]
  vote <proposalId> [--support for|against|abstain]
  chat <message...> [--address <0x..>]         ask in plain English

Options
  --url <url>       the service (env BURN_TO_CREATE_URL, default http://127.0.0.1:3000)
  --key <hex>       private key (env BURN_TO_CREATE_KEY); never printed
  --account <n>     a devnet account index (local devnet only; default 5 there)
  --rpc <url>       RPC to send with (default: the one the service advertises)
  --json            print the result as JSON on stdout (progress goes to stderr)
  -h, --help        this help
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
  help: { type: 'boolean', short: 'h', default: false },
} as const

export async function main(argv: string[]): Promise<number> {
  let parsed
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true })
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${HELP}`)
    return 2
  }
  const { values: v, positionals } = parsed
  const [command, ...rest] = positionals
  if (v.help || !command || command === 'help') {
    process.stdout.write(HELP)
    return command || v.help ? 0 : 2
  }
  const s = createSession({
    url: v.url ?? process.env.BURN_TO_CREATE_URL ?? 'http://127.0.0.1:3000',
    key: v.key ?? process.env.BURN_TO_CREATE_KEY,
    account: v.account,
    rpc: v.rpc,
    json: v.json,
  })
  const signer = v.key ?? process.env.BURN_TO_CREATE_KEY ?? v.account
  try {
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
      case 'chat': {
        if (rest.length === 0) throw new UsageError('chat needs a message, e.g. chat "what does a portrait cost?"')
        const address = v.address ?? (signer ? (await s.wallet()).address : undefined)
        await chat(s, rest.join(' '), { address })
        break
      }
      default:
        throw new UsageError(`unknown command "${command}"`)
    }
    return 0
  } catch (error) {
    return report(error)
  }
}

function report(error: unknown): number {
  if (error instanceof UsageError) {
    process.stderr.write(`error: ${error.message}\n\nRun burn-to-create help for usage.\n`)
    return 2
  }
  if (error instanceof ApiError) {
    process.stderr.write(`error ${error.code}${error.status ? ` (HTTP ${error.status})` : ''}: ${error.message}${error.requestId ? `\nrequest id: ${error.requestId}` : ''}\n`)
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
