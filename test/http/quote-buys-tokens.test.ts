import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createPublicClient, createWalletClient, encodeFunctionData, erc20Abi, http, parseAbi } from 'viem'
import { useApp } from '../support/harness.ts'
import { createViemChain } from '../../src/chain/clients.ts'
import { testAccount } from '../support/accounts.ts'

const routerAbi = parseAbi([
  'function exactInputSingle((address tokenIn, address tokenOut, uint24 fee, address recipient, uint256 amountIn, uint256 amountOutMinimum, uint160 sqrtPriceLimitX96) params) payable returns (uint256 amountOut)',
])

const app = useApp()

/** An agent that discovers everything from the API, as a script outside the service would. */
async function agentClients(index: number) {
  const info = (await app.get(`/api/bridge`)).body
  const chain = createViemChain(info.chain.rpc, 'https://megaexplorer.xyz', '0xcA11bde05977b3631167028862bE2a173976CA11')
  const account = testAccount(index).account
  return {
    account,
    publicClient: createPublicClient({ chain, transport: http() }),
    wallet: createWalletClient({ chain, transport: http(), account }),
    token: info.tokens.megachad.address as `0x${string}`,
  }
}

test('the quoted exactInputSingle, sent as is with the caller as recipient, buys tokens', async () => {
  const { account, publicClient, wallet, token } = await agentClients(5)
  const { status, body } = await app.get(`/api/x402/quote?ethAmount=0.5`)
  assert.equal(status, 200)
  const params = body.swap.params
  const data = encodeFunctionData({
    abi: routerAbi,
    functionName: 'exactInputSingle',
    args: [
      {
        tokenIn: params.tokenIn,
        tokenOut: params.tokenOut,
        fee: params.fee,
        recipient: account.address,
        amountIn: BigInt(params.amountIn),
        amountOutMinimum: BigInt(params.amountOutMinimum),
        sqrtPriceLimitX96: BigInt(params.sqrtPriceLimitX96),
      },
    ],
  })
  const before = await publicClient.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [account.address] })
  const hash = await wallet.sendTransaction({ to: body.swap.router, data, value: BigInt(body.swap.value) })
  const receipt = await publicClient.waitForTransactionReceipt({ hash })
  assert.equal(receipt.status, 'success')
  const after = await publicClient.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [account.address] })
  assert.equal(after - before, BigInt(body.quote.coinOutWei), 'received exactly the quoted amount')
})

test('with ?recipient the returned calldata can be sent untouched', async () => {
  const { account, publicClient, wallet, token } = await agentClients(6)
  const { body } = await app.get(`/api/x402/quote?ethAmount=1&recipient=${account.address}`)
  assert.equal(body.swap.params.recipient, account.address)
  const hash = await wallet.sendTransaction({ to: body.swap.router, data: body.swap.data, value: BigInt(body.swap.value) })
  assert.equal((await publicClient.waitForTransactionReceipt({ hash })).status, 'success')
  const balance = await publicClient.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [account.address] })
  assert.ok(balance >= BigInt(body.swap.params.amountOutMinimum))
  assert.equal(body.quote.hasEnoughForBurn, balance >= 225_000n * 10n ** 18n)
})
