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

// The stream of the last api container, read as text/event-stream.
const controller = new AbortController()
const response = await fetch(`${apis.at(-1)}/api/events`, { signal: controller.signal })
const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
let buffered = ''
async function waitFor(match: (event: string, data: any) => boolean, ms: number) {
  const deadline = Date.now() + ms
  for (;;) {
    for (let end = buffered.indexOf('\n\n'); end >= 0; end = buffered.indexOf('\n\n')) {
      const block = buffered.slice(0, end)
      buffered = buffered.slice(end + 2)
      const event = /^event: (.*)$/m.exec(block)?.[1] ?? 'message'
      const data = /^data: (.*)$/m.exec(block)?.[1]
      if (data && match(event, JSON.parse(data))) return
    }
    if (Date.now() > deadline) fail(`no matching event within ${ms} ms`)
    const { value, done } = await Promise.race([reader.read(), new Promise<{ value: undefined; done: false }>((r) => setTimeout(() => r({ value: undefined, done: false }), 500))])
    if (done) fail('the stream ended')
    if (value) buffered += value
  }
}
await waitFor((event) => event === 'stats', 10_000)

const before = await json(`${apis[0]}/api/stats`)
const wallet = createWalletClient({ transport: http(rpcUrl), account: privateKeyToAccount(DEVNET_PRIVATE_KEYS[0]!) })
const chainId = Number(await (await fetch(rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }) })).json().then((r: any) => r.result))
const info = await (await fetch(rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'devnet_info', params: [] }) })).json() as any
const token = info.result.contracts.token as `0x${string}`
const hash = await wallet.sendTransaction({
  chain: { id: chainId, name: 'devnet', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [rpcUrl] } } },
  to: token,
  data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [BURN_ADDRESS, 1000n * 10n ** 18n] }),
})
const sentAt = Date.now()
await waitFor((event, data) => event === 'burn' && String(data.txHash).toLowerCase() === hash.toLowerCase(), 30_000)
console.log(`ok   a plain burn (${hash}) reached the stream of ${apis.at(-1)} in ${Date.now() - sentAt} ms`)
controller.abort()

const after = await json(`${apis[0]}/api/stats`)
if (!(after.tokensBurned >= before.tokensBurned + 1000)) fail(`${apis[0]}/api/stats did not count the burn: ${JSON.stringify(before)} -> ${JSON.stringify(after)}`)
console.log(`ok   ${apis[0]}/api/stats counts it: tokensBurned ${before.tokensBurned} -> ${after.tokensBurned}`)
process.exit(0)
