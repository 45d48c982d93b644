/**
 * Child process of the read-side benchmark: real burns on the devnet at a steady rate, as
 * production sees them, until its stdin closes. Each burn is what a looksmaxx puts on chain: the
 * burner's two transfers (to the dead address and to the fund wallet) and the portrait NFT minted
 * to it by the minter key. Sent from a process of its own so that signing and sending do not
 * take the measured service's CPU. Prints `started` once the first burn is mined, and
 * { burns, failed } when done.
 *
 * argv[2]: JSON { rpc, token, nft, fund, multicall3, perSecond }.
 */
import { createPublicClient, createWalletClient, erc20Abi, http, parseUnits } from 'viem'
import { createViemChain } from '../src/chain/clients.ts'
import { portraitNftAbi } from '../src/chain/abis/portrait-nft.ts'
import { BURN_ADDRESS } from '../src/chain/constants.ts'
import { testAccount } from '../test/support/accounts.ts'

const { rpc, token, nft, fund, multicall3, perSecond } = JSON.parse(process.argv[2]!) as Record<string, string> & { perSecond: number }
if (!new URL(rpc).hostname.startsWith('127.')) throw new Error('burns go only to a devnet on 127.0.0.1')
const chain = createViemChain(rpc, 'https://x', multicall3 as `0x${string}`)
const transport = http(rpc)
const reader = createPublicClient({ chain, transport })
// The demo holder burns (1,000,000 tokens: a token a leg is enough); the deployer is the NFT minter.
const burner = createWalletClient({ chain, transport, account: testAccount(4).account })
const minter = createWalletClient({ chain, transport, account: testAccount(0).account })

let burns = 0
let failed = 0
let stopping = false
process.stdin.on('end', () => (stopping = true))
process.stdin.resume()

async function burnOnce(n: number) {
  const legs = [
    await burner.writeContract({ address: token as `0x${string}`, abi: erc20Abi, functionName: 'transfer', args: [BURN_ADDRESS, parseUnits('1', 18)] }),
    await burner.writeContract({ address: token as `0x${string}`, abi: erc20Abi, functionName: 'transfer', args: [fund as `0x${string}`, parseUnits('1', 18)] }),
    await minter.writeContract({ address: nft as `0x${string}`, abi: portraitNftAbi, functionName: 'mint', args: [burner.account.address, `ipfs://bench-${n}`] }),
  ]
  for (const hash of legs) {
    const receipt = await reader.waitForTransactionReceipt({ hash, pollingInterval: 10 })
    if (receipt.status !== 'success') throw new Error(`${hash} reverted`)
  }
}

// One burn every 1/perSecond s, whatever the previous took (sent in order: one sender per key).
let chainTail = Promise.resolve()
const interval = 1000 / perSecond
const started = performance.now()
await burnOnce(-1)
process.stdout.write('started\n')
for (let n = 0; !stopping; n++) {
  chainTail = chainTail.then(() => burnOnce(n).then(() => void burns++, () => void failed++))
  const next = started + (n + 1) * interval
  await new Promise((r) => setTimeout(r, Math.max(0, next - performance.now())))
}
await chainTail
process.stdout.write(JSON.stringify({ burns, failed }) + '\n')
process.exit(0)
