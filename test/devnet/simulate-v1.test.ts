import { test, beforeEach } from 'node:test'
import assert from 'node:assert/strict'
import { createWalletClient, encodeFunctionData, erc20Abi, http, parseEther, toHex, type Hex } from 'viem'
import { useDevnet } from '../support/harness.ts'
import { JsonRpcError } from '../support/rpc.ts'
import { testAccount } from '../support/accounts.ts'
import { createViemChain } from '../../src/chain/clients.ts'
import { encodeExactInputSingle } from '../../src/chain/builders/build-swap.ts'
import { POOL_FEE } from '../../src/chain/constants.ts'

/**
 * The devnet's eth_simulateV1 (src/devnet/simulate-v1.ts), spoken as the execution-apis method:
 * calls in order with state carried, per-call status, gas, logs and revert; and afterwards no
 * trace of it on the chain, while requests sent meanwhile are served and kept.
 */
const devnet = useDevnet()
beforeEach(() => devnet.reset())

const E18 = 10n ** 18n
const ETH = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'
const TRANSFER = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'
const stranger = '0x1234567890123456789012345678901234567890'
const transfer = (to: string, amount: bigint) => encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to as Hex, amount] })
const word = (a: string) => `0x${a.slice(2).toLowerCase().padStart(64, '0')}`
const simulate = (calls: unknown[], extra: Record<string, unknown> = {}) => devnet.rpc<any[]>('eth_simulateV1', [{ blockStateCalls: [{ calls }], ...extra }, 'latest'])
const tokenBalance = async (owner: string) => BigInt(await devnet.rpc('eth_call', [{ to: devnet.info.contracts.token, data: encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [owner as Hex] }) }, 'latest']))

test('calls run in order with the state carried; a revert reports its data; nothing stays on the chain', async () => {
  const { token } = devnet.info.contracts
  const holder = devnet.info.accounts.demoHolder
  const agent = devnet.info.accounts.agents[0]!
  const head = await devnet.rpc<string>('eth_blockNumber')
  const agentTokens = await tokenBalance(agent)
  const [block] = await simulate([
    { from: holder, to: token, data: transfer(agent, 5n) },
    { from: agent, to: token, data: transfer(stranger, agentTokens + 5n) },
    { from: agent, to: token, data: transfer(stranger, 1n) },
    { from: agent, to: stranger, value: '0x10' },
  ], { traceTransfers: true })
  assert.equal(BigInt(block.number), BigInt(head) + 1n, 'simulated on top of the latest block')
  assert.deepEqual(block.calls.map((c: any) => c.status), ['0x1', '0x1', '0x0', '0x1'], 'call 2 spends what call 1 gave; call 3 finds nothing left')
  assert.deepEqual(block.calls[0].logs.map((l: any) => [l.address, l.topics, BigInt(l.data)]), [[token.toLowerCase(), [TRANSFER, word(holder), word(agent)], 5n]])
  assert.equal(block.calls[2].error.code, 3)
  assert.equal(block.calls[2].error.data.slice(0, 10), '0xe450d38c', 'ERC20InsufficientBalance')
  assert.deepEqual(block.calls[3].logs.map((l: any) => [l.address, l.topics, BigInt(l.data)]), [[ETH, [TRANSFER, word(agent), word(stranger)], 16n]], 'the ETH it sends, traced')
  for (const c of block.calls) assert.ok(BigInt(c.gasUsed) >= 21_000n)

  assert.equal(await devnet.rpc('eth_blockNumber'), head)
  assert.equal(await tokenBalance(agent), agentTokens)
  assert.equal(BigInt(await devnet.rpc('eth_getBalance', [stranger, 'latest'])), 0n)
  await assert.rejects(devnet.rpc('eth_sendTransaction', [{ from: stranger, to: agent }]), JsonRpcError, 'the simulated sender is no longer impersonated')
})

test('traceTransfers follows ETH inside calls: the router wraps the ETH of a swap', async () => {
  const { swapRouter, weth, token, pool } = devnet.info.contracts
  const agent = devnet.info.accounts.agents[1]!
  const amountIn = E18 / 100n
  const data = encodeExactInputSingle({ tokenIn: weth, tokenOut: token, fee: POOL_FEE, recipient: agent, amountIn, amountOutMinimum: 0n, sqrtPriceLimitX96: 0n })
  const [block] = await simulate([{ from: agent, to: swapRouter, data, value: toHex(amountIn) }], { traceTransfers: true })
  const transfers = block.calls[0].logs.filter((l: any) => l.topics[0] === TRANSFER).map((l: any) => [l.address, `0x${l.topics[1].slice(26)}`, `0x${l.topics[2].slice(26)}`])
  assert.deepEqual(transfers, [
    [ETH, agent.toLowerCase(), swapRouter.toLowerCase()],
    [token.toLowerCase(), pool.toLowerCase(), agent.toLowerCase()],
    [ETH, swapRouter.toLowerCase(), weth.toLowerCase()],
    [weth.toLowerCase(), swapRouter.toLowerCase(), pool.toLowerCase()],
  ])
})

test('a value above the sender\'s ETH fails the whole request (-38014), as on geth', async () => {
  const head = await devnet.rpc<string>('eth_blockNumber')
  await assert.rejects(simulate([{ from: stranger, to: devnet.info.accounts.deployer, value: toHex(parseEther('1')) }]), (error: JsonRpcError) => error.code === -38014)
  assert.equal(await devnet.rpc('eth_blockNumber'), head)
})

test('transactions sent while simulations run wait for them and are all mined, none reverted with a snapshot', async () => {
  const { token } = devnet.info.contracts
  const sender = testAccount(4)
  const chain = createViemChain(devnet.url, 'https://megaexplorer.xyz', devnet.info.contracts.multicall3)
  const wallet = createWalletClient({ chain, transport: http(devnet.url), account: sender.account })
  const nonce = await devnet.rpc<string>('eth_getTransactionCount', [sender.account.address, 'latest'])
  const raws = await Promise.all(
    Array.from({ length: 12 }, (_, i) =>
      wallet.signTransaction({ to: token, data: transfer(stranger, 1n), nonce: Number(nonce) + i, gas: 100_000n, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 10n ** 9n }),
    ),
  )
  const sims = Array.from({ length: 6 }, () => simulate([{ from: sender.account.address, to: token, data: transfer(stranger, 1n) }, { from: devnet.info.accounts.agents[2]!, to: stranger, value: '0x1' }]))
  // Sent one after the other (nonces in order) while the simulations queue in between.
  for (const raw of raws) await devnet.rpc('eth_sendRawTransaction', [raw])
  const results = await Promise.all(sims)
  for (const [block] of results) assert.deepEqual(block.calls.map((c: any) => c.status), ['0x1', '0x1'])
  assert.equal(await tokenBalance(stranger), 12n, 'every transfer sent is mined and kept')
  assert.equal(BigInt(await devnet.rpc('eth_getBalance', [stranger, 'latest'])), 0n, 'no simulated ETH stayed')
})

test('automine off stays off, with the pool untouched; a client\'s own impersonation survives a simulation from that account', async () => {
  const agent = devnet.info.accounts.agents[3]!
  await devnet.rpc('hardhat_impersonateAccount', [stranger])
  await devnet.rpc('hardhat_setBalance', [stranger, toHex(E18)])
  await devnet.rpc('evm_setAutomine', [false])
  try {
    const pending = await devnet.rpc<string>('eth_sendTransaction', [{ from: agent, to: stranger, value: '0x2' }])
    const [block] = await simulate([{ from: stranger, to: agent, value: '0x1' }])
    assert.equal(block.calls[0].status, '0x1')
    assert.equal(await devnet.rpc('hardhat_getAutomine'), false)
    assert.equal(await devnet.rpc('eth_getTransactionReceipt', [pending]), null, 'the waiting transaction still waits')
    const own = await devnet.rpc<string>('eth_sendTransaction', [{ from: stranger, to: agent, value: '0x1' }])
    await devnet.rpc('evm_mine')
    assert.equal((await devnet.rpc<any>('eth_getTransactionReceipt', [pending])).status, '0x1')
    assert.equal((await devnet.rpc<any>('eth_getTransactionReceipt', [own])).status, '0x1', 'the client still sends as the account it impersonates')
  } finally {
    await devnet.rpc('evm_setAutomine', [true])
    await devnet.rpc('hardhat_stopImpersonatingAccount', [stranger])
  }
})
