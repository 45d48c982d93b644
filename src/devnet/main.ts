import { startDevnet } from './start-devnet.ts'
import { devnetAccounts } from '../chain/devnet-accounts.ts'

/** `npm run devnet`: the embedded chain on its own, for wallets and scripts. */
const started = Date.now()
const port = Number(process.env.DEVNET_RPC_PORT ?? 8545)
const host = process.env.HOST ?? '127.0.0.1'
const serviceUrl = process.env.PUBLIC_BASE_URL ?? `http://${host}:${process.env.PORT ?? 3000}`
const devnet = await startDevnet({ host, port, serviceUrl })
const lines = [
  `devnet ready in ${Date.now() - started} ms (contracts ${devnet.seed === 'replayed' ? 'replayed from the seed journal in .cache/devnet' : 'deployed and seeded, now journaled in .cache/devnet'}): chain ${devnet.info.chainId}, JSON-RPC ${devnet.url}`,
  'contracts:',
  ...Object.entries(devnet.info.contracts).map(([name, address]) => `  ${name.padEnd(20)} ${address}`),
  'accounts (mnemonic "test test test test test test test test test test test junk", 10,000 ETH each):',
  ...devnetAccounts().map((a) => `  ${a.index} ${a.address}`),
]
console.log(lines.join('\n'))
const stop = async () => {
  await devnet.close()
  process.exit(0)
}
process.on('SIGINT', () => void stop())
process.on('SIGTERM', () => void stop())
