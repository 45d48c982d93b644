import { test, before, after, describe } from 'node:test'
import assert from 'node:assert/strict'
import {
  createPublicClient, createWalletClient, http, parseAbi, parseEther, parseSignature, maxUint256, erc20Abi, getAddress,
  BaseError, ContractFunctionRevertedError, type Address, type Hex,
} from 'viem'
import { randomBytes } from 'node:crypto'
import { startDevnet, type Devnet } from '../../src/devnet/start-devnet.ts'
import { createViemChain } from '../../src/chain/clients.ts'
import { quoterV2Abi, swapRouter02Abi } from '../../src/chain/abis/uniswap.ts'
import { eip3009Abi, transferWithAuthorizationTypes } from '../../src/chain/abis/eip3009.ts'
import { identityRegistryAbi, reputationRegistryAbi } from '../../src/chain/abis/registries.ts'
import { testAccount } from '../support/accounts.ts'

const E18 = 10n ** 18n
const DEAD = getAddress('0x000000000000000000000000000000000000dEaD')
let devnet: Devnet
let chain: ReturnType<typeof createViemChain>
let client: ReturnType<typeof createPublicClient>
const account = (i: number) => testAccount(i).account
const wallet = (i: number) => createWalletClient({ chain, transport: http(devnet.url), account: account(i) })
const now = async () => (await client.getBlock()).timestamp

before(async () => {
  devnet = await startDevnet({ host: '127.0.0.1', port: 0 })
  chain = createViemChain(devnet.url, 'https://megaexplorer.xyz', devnet.info.contracts.multicall3)
  client = createPublicClient({ chain, transport: http(devnet.url) })
})
after(async () => devnet?.close())

/** Sends a transaction (fixed gas, no simulation) and returns its receipt status; any other failure throws. */
async function send(from: number, to: Address, abi: readonly unknown[], functionName: string, args: unknown[], value = 0n) {
  const hash = await wallet(from).writeContract({ address: to, abi, functionName, args, value, gas: 2_000_000n } as never)
  return (await client.waitForTransactionReceipt({ hash })).status
}

/**
 * The revert of a call that must fail: its Error(string) reason, or `ErrorName(args)` for a
 * custom error of the ABI. Anything but a revert (a wrong ABI, a dead RPC) fails the test.
 * The same transaction, mined with fixed gas, must then end with status `reverted` and leave
 * no trace, so the refusal is proven on chain too, not only in eth_call.
 */
async function revertOf(from: number, to: Address, abi: readonly unknown[], functionName: string, args: unknown[], value = 0n): Promise<string> {
  let reason: string | undefined
  try {
    await client.simulateContract({ account: account(from), address: to, abi, functionName, args, value } as never)
  } catch (error) {
    const reverted = error instanceof BaseError ? error.walk((e) => e instanceof ContractFunctionRevertedError) : undefined
    if (!(reverted instanceof ContractFunctionRevertedError)) throw error
    reason = reverted.reason ?? (reverted.data ? `${reverted.data.errorName}(${(reverted.data.args ?? []).join(',')})` : undefined)
    if (reason === undefined) throw error
  }
  if (reason === undefined) assert.fail(`${functionName} did not revert`)
  assert.equal(await send(from, to, abi, functionName, args, value), 'reverted')
  return reason
}
const balance = (token: Address, owner: Address) => client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [owner] })

describe('the chain', () => {
  test('chain 4326, the same addresses on every boot, standard batch JSON-RPC', async () => {
    assert.equal(await client.getChainId(), 4326)
    // Deterministic deployment: the deployer's first nonces, as on every boot.
    assert.equal(devnet.info.contracts.token, '0x5FbDB2315678afecb367f032d93F642f64180aa3')
    assert.equal(devnet.info.contracts.weth, '0x4200000000000000000000000000000000000006')
    assert.equal(devnet.info.contracts.multicall3, '0xcA11bde05977b3631167028862bE2a173976CA11')
    const response = await fetch(devnet.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([{ jsonrpc: '2.0', id: 7, method: 'eth_chainId' }, { jsonrpc: '2.0', id: 'b', method: 'net_version', params: [] }]),
    })
    assert.deepEqual(await response.json(), [{ jsonrpc: '2.0', id: 7, result: '0x10e6' }, { jsonrpc: '2.0', id: 'b', result: '4326' }])
  })

  test('block timestamps follow the wall clock under a burst of 50 transactions', async () => {
    for (let i = 0; i < 50; i++) await wallet(9).sendTransaction({ to: account(8).address, value: 1n })
    const block = await client.getBlock()
    assert.ok(Math.abs(Number(block.timestamp) - Date.now() / 1000) <= 2, `block ${block.timestamp} vs wall ${Date.now() / 1000}`)
  })

  test('the accounts table is seeded', async () => {
    assert.equal(await balance(devnet.info.contracts.token, devnet.info.accounts.demoHolder), 1_000_000n * E18)
    for (const a of [devnet.info.accounts.demoHolder, ...devnet.info.accounts.agents]) {
      assert.equal(await balance(devnet.info.contracts.usdm, a), 1_000n * E18)
      assert.equal(await client.readContract({ address: devnet.info.contracts.usdm, abi: erc20Abi, functionName: 'allowance', args: [a, devnet.info.contracts.usdmForwarder] }), maxUint256)
    }
    assert.equal(await balance(devnet.info.contracts.token, devnet.info.accounts.agents[0]!), 0n)
    assert.equal(await client.getBalance({ address: devnet.info.accounts.relayer }), 10_000n * E18)
  })
})

describe('second token (MG)', () => {
  test('Mega Gooner / MEGAGOONER, 18 decimals, 50,000,000 minted to the deployer', async () => {
    const mg = devnet.info.contracts.secondToken
    const read = (functionName: 'name' | 'symbol' | 'decimals' | 'totalSupply') => client.readContract({ address: mg, abi: erc20Abi, functionName })
    assert.equal(await read('name'), 'Mega Gooner')
    assert.equal(await read('symbol'), 'MEGAGOONER')
    assert.equal(await read('decimals'), 18)
    // 50,000,000 minted to the deployer at deployment; since then only the ranking's 4 : 1 burns (DeFi seed) removed any.
    const [mint] = await client.getContractEvents({ address: mg, abi: erc20Abi, eventName: 'Transfer', args: { from: '0x0000000000000000000000000000000000000000' }, fromBlock: 0n })
    assert.deepEqual([mint!.args.to, mint!.args.value], [devnet.info.accounts.deployer, 50_000_000n * E18])
    const burned = await client.readContract({ address: devnet.info.contracts.ranking!, abi: parseAbi(['function totalMegagoonerBurned() view returns (uint256)']), functionName: 'totalMegagoonerBurned' })
    assert.equal(await read('totalSupply'), 50_000_000n * E18 - burned)
    assert.notEqual(getAddress(mg), getAddress(devnet.info.contracts.token))
  })
})

describe('DEX', () => {
  test('QuoterV2 quotes and SwapRouter02 exactInputSingle buys exactly the quote; 5 ETH moves the price less than 5%', async () => {
    const { weth, token, quoterV2, swapRouter } = devnet.info.contracts
    const quote = async (amountIn: bigint) =>
      (await client.simulateContract({ address: quoterV2, abi: quoterV2Abi, functionName: 'quoteExactInputSingle', args: [{ tokenIn: weth, tokenOut: token, amountIn, fee: 10000, sqrtPriceLimitX96: 0n }] })).result[0]
    const spotBefore = await quote(parseEther('0.001'))
    const amountOut = await quote(parseEther('5'))
    const buyer = account(6).address
    const before = await balance(token, buyer)
    assert.equal(
      await send(6, swapRouter, swapRouter02Abi, 'exactInputSingle', [{ tokenIn: weth, tokenOut: token, fee: 10000, recipient: buyer, amountIn: parseEther('5'), amountOutMinimum: amountOut, sqrtPriceLimitX96: 0n }], parseEther('5')),
      'success',
    )
    assert.equal((await balance(token, buyer)) - before, amountOut)
    const spotAfter = await quote(parseEther('0.001'))
    const move = Number(spotBefore - spotAfter) / Number(spotBefore)
    assert.ok(move > 0 && move < 0.05, `price moved ${(move * 100).toFixed(2)}%`)
  })

  test('a swap estimated in the second of the previous swap still succeeds when mined in the next second', async () => {
    // Without headroom in eth_estimateGas this runs out of gas: the pool writes its oracle
    // observation only in the first swap of a new block timestamp.
    const { weth, token, swapRouter } = devnet.info.contracts
    const args = (i: number) => [{ tokenIn: weth, tokenOut: token, fee: 10000, recipient: account(i).address, amountIn: parseEther('0.5'), amountOutMinimum: 0n, sqrtPriceLimitX96: 0n }]
    const request = (i: number) => ({ account: account(i), address: swapRouter, abi: swapRouter02Abi, functionName: 'exactInputSingle', args: args(i), value: parseEther('0.5') }) as const
    const startOfNextSecond = () => new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 10))
    for (let attempt = 0; ; attempt++) {
      await startOfNextSecond()
      const first = await client.waitForTransactionReceipt({ hash: await wallet(7).writeContract({ ...request(7), gas: 2_000_000n } as never) })
      const gas = await client.estimateContractGas(request(5) as never)
      const sameSecond = BigInt(Math.floor(Date.now() / 1000)) === (await client.getBlock({ blockNumber: first.blockNumber })).timestamp
      if (!sameSecond) {
        assert.ok(attempt < 5, 'could not estimate within the second of the previous swap')
        continue
      }
      await startOfNextSecond()
      const hash = await wallet(5).writeContract({ ...request(5), gas } as never)
      assert.equal((await client.waitForTransactionReceipt({ hash })).status, 'success')
      return
    }
  })
})

describe('USDm forwarder (EIP-3009)', () => {
  const sign = async (from: number, overrides: Partial<{ to: Address; value: bigint; validAfter: bigint; validBefore: bigint; nonce: Hex }> = {}, signer = from) => {
    const t = await now()
    const message = {
      from: account(from).address,
      to: overrides.to ?? devnet.info.accounts.facilitator,
      value: overrides.value ?? E18,
      validAfter: overrides.validAfter ?? t - 600n,
      validBefore: overrides.validBefore ?? t + 300n,
      nonce: overrides.nonce ?? (`0x${randomBytes(32).toString('hex')}` as Hex),
    }
    const signature = await account(signer).signTypedData({
      domain: { name: 'USDm Forwarder', version: '1', chainId: 4326, verifyingContract: devnet.info.contracts.usdmForwarder },
      types: transferWithAuthorizationTypes,
      primaryType: 'TransferWithAuthorization',
      message,
    })
    const { v, r, s } = parseSignature(signature)
    return { message, args: [message.from, message.to, message.value, message.validAfter, message.validBefore, message.nonce, Number(v), r, s] }
  }
  const settle = (args: unknown[]) => send(2, devnet.info.contracts.usdmForwarder, eip3009Abi, 'transferWithAuthorization', args)
  const refusal = (args: unknown[]) => revertOf(2, devnet.info.contracts.usdmForwarder, eip3009Abi, 'transferWithAuthorization', args)

  test('moves exactly the value, marks the nonce used, and refuses a replay', async () => {
    const { usdm, usdmForwarder } = devnet.info.contracts
    const payer = account(5).address
    const payee = devnet.info.accounts.facilitator
    const [payerBefore, payeeBefore] = [await balance(usdm, payer), await balance(usdm, payee)]
    const { message, args } = await sign(5)
    assert.equal(await settle(args), 'success')
    assert.equal(payerBefore - (await balance(usdm, payer)), E18)
    assert.equal((await balance(usdm, payee)) - payeeBefore, E18)
    assert.equal(await client.readContract({ address: usdmForwarder, abi: eip3009Abi, functionName: 'authorizationState', args: [payer, message.nonce] }), true)
    assert.equal(await refusal(args), 'Authorization is used or canceled', 'a replayed nonce is refused')
    assert.equal(payerBefore - (await balance(usdm, payer)), E18)
  })

  test('refuses a bad signature, an expired window and a window not yet open', async () => {
    const t = await now()
    const payerBefore = await balance(devnet.info.contracts.usdm, account(5).address)
    assert.equal(await refusal((await sign(5, {}, 6)).args), 'Invalid signature', 'signed by someone else')
    assert.equal(await refusal((await sign(5, { validBefore: t - 1n })).args), 'Authorization is expired', 'expired')
    assert.equal(await refusal((await sign(5, { validAfter: t + 3600n })).args), 'Authorization is not yet valid', 'not yet valid')
    const tampered = (await sign(5)).args
    tampered[2] = 2n * E18
    assert.equal(await refusal(tampered), 'Invalid signature', 'a changed amount breaks the signature')
    assert.equal(await balance(devnet.info.contracts.usdm, account(5).address), payerBefore, 'no refused authorization moved funds')
  })
})

describe('portrait NFT', () => {
  const nftAbi = parseAbi([
    'function mint(address,string) returns (uint256)', 'function ownerOf(uint256) view returns (address)', 'function tokenURI(uint256) view returns (string)', 'function totalMinted() view returns (uint256)',
    'error OwnableUnauthorizedAccount(address account)',
  ])
  test('the owner mints sequential ids with their URI; anyone else is refused', async () => {
    const { nft } = devnet.info.contracts
    const first = await client.readContract({ address: nft, abi: nftAbi, functionName: 'totalMinted' })
    assert.equal(await send(0, nft, nftAbi, 'mint', [account(7).address, 'ipfs://a']), 'success')
    assert.equal(await send(0, nft, nftAbi, 'mint', [account(7).address, 'ipfs://b']), 'success')
    assert.equal(await client.readContract({ address: nft, abi: nftAbi, functionName: 'ownerOf', args: [first + 1n] }), account(7).address)
    assert.equal(await client.readContract({ address: nft, abi: nftAbi, functionName: 'tokenURI', args: [first + 1n] }), 'ipfs://b')
    assert.equal(await revertOf(5, nft, nftAbi, 'mint', [account(5).address, 'ipfs://c']), `OwnableUnauthorizedAccount(${account(5).address})`, 'mint by a non-minter')
    assert.equal(await revertOf(0, nft, nftAbi, 'mint', [account(5).address, '']), 'Empty token URI')
    assert.equal(await client.readContract({ address: nft, abi: nftAbi, functionName: 'totalMinted' }), first + 2n)
  })
})

describe('gasless relayer', () => {
  const relayerAbi = parseAbi(['function relayBurn(address,uint256,uint8,bytes32,bytes32)', 'function nonces(address) view returns (uint256)'])
  const signBurn = async (burner: number, nonce: bigint, deadline: bigint, signer = burner) => {
    const signature = await account(signer).signTypedData({
      domain: { name: 'MegaChadRelayer', version: '1', chainId: 4326, verifyingContract: devnet.info.contracts.relayer },
      types: { BurnRequest: [{ name: 'burner', type: 'address' }, { name: 'nonce', type: 'uint256' }, { name: 'deadline', type: 'uint256' }] },
      primaryType: 'BurnRequest',
      message: { burner: account(burner).address, nonce, deadline },
    })
    const { v, r, s } = parseSignature(signature)
    return [account(burner).address, deadline, Number(v), r, s]
  }

  test('relays a signed burn: 112,500 to dead and 112,500 to the fund, paid by the relayer; refuses expiry, bad signatures and replays', async () => {
    const { token, relayer } = devnet.info.contracts
    const holder = 4
    assert.equal(await send(holder, token, erc20Abi, 'approve', [relayer, maxUint256]), 'success')
    const [deadBefore, fundBefore] = [await balance(token, DEAD), await balance(token, devnet.info.accounts.fundWallet)]
    const t = await now()
    const args = await signBurn(holder, 0n, t + 600n)
    assert.equal(await send(1, relayer, relayerAbi, 'relayBurn', args), 'success')
    assert.equal((await balance(token, DEAD)) - deadBefore, 112_500n * E18)
    assert.equal((await balance(token, devnet.info.accounts.fundWallet)) - fundBefore, 112_500n * E18)
    assert.equal(await client.readContract({ address: relayer, abi: relayerAbi, functionName: 'nonces', args: [account(holder).address] }), 1n)
    // A replay is signed over the used nonce: the digest of the next nonce does not recover the burner.
    assert.equal(await revertOf(1, relayer, relayerAbi, 'relayBurn', args), 'Invalid signature', 'replayed nonce')
    assert.equal(await revertOf(1, relayer, relayerAbi, 'relayBurn', await signBurn(holder, 1n, t - 10n)), 'Signature expired', 'expired deadline')
    assert.equal(await revertOf(1, relayer, relayerAbi, 'relayBurn', await signBurn(holder, 1n, t + 600n, 5)), 'Invalid signature', 'bad signature')
    // The same signature over the right nonce is accepted: the refusals above were for their reason only.
    assert.equal(await send(1, relayer, relayerAbi, 'relayBurn', await signBurn(holder, 1n, t + 600n)), 'success')
    assert.equal(await client.readContract({ address: relayer, abi: relayerAbi, functionName: 'nonces', args: [account(holder).address] }), 2n)
  })
})

describe('referral', () => {
  const referralAbi = parseAbi(['function registerAgent()', 'function burnWithReferral(address)', 'function getAgentStats(address) view returns (uint256,uint256,bool)'])
  test('a referred burn pays the agent 11,250 out of the fund half', async () => {
    const { token, referral } = devnet.info.contracts
    const agent = account(8).address
    const holder = 4
    assert.equal(await revertOf(holder, referral, referralAbi, 'burnWithReferral', [agent]), 'Referrer not registered', 'unregistered referrer')
    assert.equal(await send(8, referral, referralAbi, 'registerAgent', []), 'success')
    assert.equal(await send(holder, token, erc20Abi, 'approve', [referral, maxUint256]), 'success')
    const [agentBefore, fundBefore, deadBefore] = [await balance(token, agent), await balance(token, devnet.info.accounts.fundWallet), await balance(token, DEAD)]
    assert.equal(await send(holder, referral, referralAbi, 'burnWithReferral', [agent]), 'success')
    assert.equal((await balance(token, agent)) - agentBefore, 11_250n * E18)
    assert.equal((await balance(token, devnet.info.accounts.fundWallet)) - fundBefore, 101_250n * E18)
    assert.equal((await balance(token, DEAD)) - deadBefore, 112_500n * E18)
    assert.deepEqual(await client.readContract({ address: referral, abi: referralAbi, functionName: 'getAgentStats', args: [agent] }), [1n, 11_250n * E18, true])
    assert.equal(await revertOf(8, referral, referralAbi, 'burnWithReferral', [agent]), 'Cannot refer yourself', 'self-referral')
  })
})

describe('ERC-8004 (the v1 interface deployed at 0x8004…)', () => {
  const zeroHash = `0x${'00'.repeat(32)}` as const
  test('the service is a registered agent; its agent wallet is its owner, changed only with the wallet\'s signature', async () => {
    const { identityRegistry } = devnet.info.contracts
    const id = BigInt(devnet.info.agentId)
    // Ids start at 0, as on the deployed registry; the service registers first.
    assert.equal(id, 0n)
    assert.equal(await client.readContract({ address: identityRegistry, abi: identityRegistryAbi, functionName: 'ownerOf', args: [id] }), devnet.info.accounts.deployer)
    assert.match(await client.readContract({ address: identityRegistry, abi: identityRegistryAbi, functionName: 'tokenURI', args: [id] }), /agent-registration\.json$/)
    assert.equal(await client.readContract({ address: identityRegistry, abi: identityRegistryAbi, functionName: 'getAgentWallet', args: [id] }), devnet.info.accounts.deployer)
    assert.equal(await client.readContract({ address: identityRegistry, abi: identityRegistryAbi, functionName: 'getVersion' }), '2.0.0')
    const walletAbi = parseAbi(['function setAgentWallet(uint256,address,uint256,bytes)', 'function setMetadata(uint256,string,bytes)'])
    const deadline = (await now()) + 120n
    const typed = {
      domain: { name: 'ERC8004IdentityRegistry', version: '1', chainId: 4326, verifyingContract: identityRegistry },
      types: { AgentWalletSet: [{ name: 'agentId', type: 'uint256' }, { name: 'newWallet', type: 'address' }, { name: 'owner', type: 'address' }, { name: 'deadline', type: 'uint256' }] },
      primaryType: 'AgentWalletSet',
      message: { agentId: id, newWallet: account(9).address, owner: account(0).address, deadline },
    } as const
    // Signed by someone else than the new wallet: refused.
    assert.equal(await revertOf(0, identityRegistry, walletAbi, 'setAgentWallet', [id, account(9).address, deadline, await account(8).signTypedData(typed)]), 'invalid wallet sig')
    assert.equal(await revertOf(0, identityRegistry, walletAbi, 'setMetadata', [id, 'agentWallet', '0x01']), 'reserved key')
    assert.equal(await send(0, identityRegistry, walletAbi, 'setAgentWallet', [id, account(9).address, deadline, await account(9).signTypedData(typed)]), 'success')
    assert.equal(await client.readContract({ address: identityRegistry, abi: identityRegistryAbi, functionName: 'getAgentWallet', args: [id] }), account(9).address)
  })

  test('feedback: 1-based indexes, no self-rating, summaries need the client list and skip revoked entries', async () => {
    const { reputationRegistry } = devnet.info.contracts
    const id = BigInt(devnet.info.agentId)
    assert.equal(await send(5, reputationRegistry, reputationRegistryAbi, 'giveFeedback', [id, 80n, 0, 'starred', '', '', '', zeroHash]), 'success')
    assert.equal(await send(6, reputationRegistry, reputationRegistryAbi, 'giveFeedback', [id, 100n, 0, 'starred', '', 'https://svc/x', 'https://svc/r', `0x${'ab'.repeat(32)}`]), 'success')
    assert.equal(await send(6, reputationRegistry, reputationRegistryAbi, 'giveFeedback', [id, 9977n, 2, 'uptime', '', '', '', zeroHash]), 'success')
    assert.equal(await revertOf(0, reputationRegistry, reputationRegistryAbi, 'giveFeedback', [id, 100n, 0, 'starred', '', '', '', zeroHash]), 'Self-feedback not allowed', 'an agent cannot rate itself')
    assert.equal(await revertOf(5, reputationRegistry, reputationRegistryAbi, 'giveFeedback', [id, 1n, 19, '', '', '', '', zeroHash]), 'too many decimals')
    const clients = await client.readContract({ address: reputationRegistry, abi: reputationRegistryAbi, functionName: 'getClients', args: [id] })
    assert.deepEqual(clients, [account(5).address, account(6).address])
    assert.equal(await client.readContract({ address: reputationRegistry, abi: reputationRegistryAbi, functionName: 'getLastIndex', args: [id, account(6).address] }), 2n)
    assert.deepEqual(await client.readContract({ address: reputationRegistry, abi: reputationRegistryAbi, functionName: 'readFeedback', args: [id, account(6).address, 2n] }), [9977n, 2, 'uptime', '', false])
    assert.deepEqual(await client.readContract({ address: reputationRegistry, abi: reputationRegistryAbi, functionName: 'getSummary', args: [id, [...clients], 'starred', ''] }), [2n, 90n, 0])
    await assert.rejects(client.readContract({ address: reputationRegistry, abi: reputationRegistryAbi, functionName: 'getSummary', args: [id, [], '', ''] }), /clientAddresses required/)
    assert.equal(await send(5, reputationRegistry, reputationRegistryAbi, 'revokeFeedback', [id, 1n]), 'success')
    assert.equal(await revertOf(5, reputationRegistry, reputationRegistryAbi, 'revokeFeedback', [id, 1n]), 'Already revoked')
    assert.deepEqual(await client.readContract({ address: reputationRegistry, abi: reputationRegistryAbi, functionName: 'getSummary', args: [id, [...clients], 'starred', ''] }), [1n, 100n, 0])
    const all = await client.readContract({ address: reputationRegistry, abi: reputationRegistryAbi, functionName: 'readAllFeedback', args: [id, [], '', '', true] })
    assert.deepEqual(all[1], [1n, 1n, 2n])
    assert.deepEqual(all[6], [true, false, false])
    // The event the indexer follows, with the feedback index and the indexed tag.
    const logs = await client.getContractEvents({ address: reputationRegistry, abi: reputationRegistryAbi, eventName: 'NewFeedback', fromBlock: 0n })
    assert.deepEqual(logs.map((l) => [l.args.clientAddress, l.args.feedbackIndex, l.args.feedbackURI]), [[account(5).address, 1n, ''], [account(6).address, 1n, 'https://svc/r'], [account(6).address, 2n, '']])
  })
})
