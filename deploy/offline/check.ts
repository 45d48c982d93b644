/**
 * What `run-compose.sh` checks once the compose stack is up: every api process ready, and a
 * plain burn on the chain (seen only by the indexer container) reaching a stream client of
 * another api container through Redis, then counted by a read of a third party (the first api).
 * Usage: node --import tsx deploy/offline/check.ts <rpcUrl> <apiUrl> <apiUrl>...
 */
import { createWalletClient, encodeFunctionData, erc20Abi, http } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { DEVNET_PRIVATE_KEYS } from '../../src/chain/devnet-accounts.ts'
import { BURN_ADDRESS } from '../../src/chain/constants.ts'
import { openStream } from '../../test/support/sse.ts'

const [rpcUrl, ...apis] = process.argv.slice(2)
if (!rpcUrl || apis.length < 2) throw new Error('usage: check.ts <rpcUrl> <apiUrl> <apiUrl>...')
const fail = (message: string): never => {
  console.error(`FAIL ${message}`)
  process.exit(1)
}
const json = async (url: string) => (await fetch(url, { signal: AbortSignal.timeout(5000) })).json() as Promise<any>

for (const api of apis) {
  const ready = await json(`${api}/readyz`)
  if (ready.status !== 'ready') fail(`${api}/readyz: ${JSON.stringify(ready)}`)
  console.log(`ok   ${api}/readyz: ${JSON.stringify(ready.checks)}`)
}

// The stream of the last api container, read by the tests' SSE client.
const stream = await openStream(`${apis.at(-1)}/api/events`)
await stream.waitFor((e) => e.event === 'stats')

const before = await json(`${apis[0]}/api/stats`)
const wallet = createWalletClient({ transport: http(rpcUrl), account: privateKeyToAccount(DEVNET_PRIVATE_KEYS[0]!) })
const rpc = async (method: string) =>
  (await (await fetch(rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: [] }) })).json() as any).result
const chainId = Number(await rpc('eth_chainId'))
const token = (await rpc('devnet_info')).contracts.token as `0x${string}`
const hash = await wallet.sendTransaction({
  chain: { id: chainId, name: 'devnet', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [rpcUrl] } } },
  to: token,
  data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [BURN_ADDRESS, 1000n * 10n ** 18n] }),
})
const sentAt = Date.now()
await stream.waitFor((e) => e.event === 'burn' && String(e.data.txHash).toLowerCase() === hash.toLowerCase(), 30_000).catch((error) => fail(error.message))
console.log(`ok   a plain burn (${hash}) reached the stream of ${apis.at(-1)} in ${Date.now() - sentAt} ms`)
await stream.close()

const after = await json(`${apis[0]}/api/stats`)
if (!(after.tokensBurned >= before.tokensBurned + 1000)) fail(`${apis[0]}/api/stats did not count the burn: ${JSON.stringify(before)} -> ${JSON.stringify(after)}`)
console.log(`ok   ${apis[0]}/api/stats counts it: tokensBurned ${before.tokensBurned} -> ${after.tokensBurned}`)
process.exit(0)
