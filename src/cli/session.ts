/**
 * What every command gets: the API, the progress display, the chain the service is on (read
 * once from the agent index) and the wallet, opened only by commands that sign.
 */
import { createApi, type Api } from './api.ts'
import { createProgress, type Progress } from './progress.ts'
import { connectWallet, resolveAccount, type ChainInfo, type Wallet } from './wallet.ts'

export type GlobalOptions = { url: string; key?: string; account?: string; rpc?: string; json: boolean }

export type Session = {
  api: Api
  progress: Progress
  json: boolean
  chain(): Promise<ChainInfo>
  wallet(): Promise<Wallet & { source: string }>
  /** Prints the result: JSON on stdout with --json, otherwise the human lines. */
  print(result: unknown, human: string[]): void
}

export function createSession(opts: GlobalOptions): Session {
  const api = createApi(opts.url)
  const progress = createProgress({ json: opts.json })
  let chainInfo: Promise<ChainInfo> | undefined
  let wallet: Promise<Wallet & { source: string }> | undefined
  const chain = () =>
    (chainInfo ??= api.get('/api/agent').then(({ body }) => ({ name: body.chain.name, chainId: body.chain.chainId, rpc: opts.rpc ?? body.chain.rpc })))
  return {
    api,
    progress,
    json: opts.json,
    chain,
    wallet: () =>
      (wallet ??= chain().then((info) => {
        const { account, source } = resolveAccount({ key: opts.key, account: opts.account, chain: info })
        return { ...connectWallet(info, account, opts.rpc), source }
      })),
    print(result, human) {
      if (opts.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`)
      else process.stdout.write(`${human.join('\n')}\n`)
    },
  }
}
