import { test, before, describe } from 'node:test'
import assert from 'node:assert/strict'
import { createWalletClient, encodeFunctionData, erc20Abi, getAddress, http, parseAbi } from 'viem'
import { useApp, type TestApp, type TestDevnet } from '../support/harness.ts'
import { createAgent, portraitBase64, type Agent } from '../support/agent.ts'
import { rpcCall } from '../support/rpc.ts'
import { testAccount } from '../support/accounts.ts'

const E18 = 10n ** 18n
const DEAD = '0x000000000000000000000000000000000000dEaD'
let devnet: TestDevnet
const app = useApp()
let image: string

before(async () => {
  devnet = app.devnet
  image = await portraitBase64()
})

/** JSON-RPC on the devnet; an error answer throws (a failed evm_revert fails the test). */
const rpc = (method: string, params: unknown[] = []) => rpcCall(devnet.url, method, params)
const approveRelayer = (amount: bigint) => encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [devnet.info.contracts.relayer, amount] })

async function signBurn(agent: Agent, typed: any, overrides: { deadline?: number } = {}) {
  const message = { burner: typed.message.burner, nonce: BigInt(typed.message.nonce), deadline: BigInt(overrides.deadline ?? typed.message.deadline) }
  const signature = await agent.account.signTypedData({ domain: typed.domain, types: typed.types, primaryType: typed.primaryType, message })
  return { burner: agent.address, deadline: Number(message.deadline), signature }
}

describe('gasless burn', () => {
  test('approve, sign the returned typed data as is, relay: both halves move, the service pays the gas; the burn redeems', async () => {
    const agent = await createAgent(app.url, devnet.url, 6)
    await agent.buyTokens('1')
    let prepared = (await app.get(`/api/gasless/burn?address=${agent.address}`)).body
    assert.equal(prepared.ready, false)
    assert.equal(prepared.approval.status, 'needed')
    assert.equal(prepared.relayerContract, devnet.info.contracts.relayer)
    await agent.send({ to: prepared.approval.transaction.to, data: prepared.approval.transaction.data })
    prepared = (await app.get(`/api/gasless/burn?address=${agent.address}`)).body
    assert.equal(prepared.ready, true)
    assert.equal(prepared.signTypedData.message.nonce, '0')

    const token = devnet.info.contracts.token
    const before = { agent: await agent.coinBalance(), dead: await agent.balanceOf(token, DEAD), fund: await agent.balanceOf(token, devnet.info.accounts.fundWallet), eth: await agent.publicClient.getBalance({ address: agent.address }) }
    const body = await signBurn(agent, prepared.signTypedData)
    // Read (and cached) before the relay: the read after it must not be this answer.
    const walletBefore = (await app.get(`/api/wallet?address=${agent.address}`)).body
    const relayed = await app.post(`/api/gasless/burn`, body)
    assert.equal(relayed.status, 200, JSON.stringify(relayed.body))
    // The write says the block its effect is in (the relay's, from its receipt), and a read
    // right after it shows the burn.
    assert.equal(relayed.headers.get('x-block-number'), String(relayed.body.blockNumber))
    const walletAfter = await app.get(`/api/wallet?address=${agent.address}`)
    assert.equal(BigInt(walletBefore.balances.coinWei) - BigInt(walletAfter.body.balances.coinWei), 225_000n * E18)
    assert.ok(BigInt(walletAfter.headers.get('x-block-number')!) >= BigInt(relayed.body.blockNumber))
    assert.equal(relayed.body.success, true)
    assert.match(relayed.body.txHash, /^0x[0-9a-f]{64}$/)
    assert.equal(relayed.body.explorerUrl, `https://megaexplorer.xyz/tx/${relayed.body.txHash}`)
    assert.ok(relayed.body.blockNumber > 0)
    assert.equal(before.agent - (await agent.coinBalance()), 225_000n * E18)
    assert.equal((await agent.balanceOf(token, DEAD)) - before.dead, 112_500n * E18)
    assert.equal((await agent.balanceOf(token, devnet.info.accounts.fundWallet)) - before.fund, 112_500n * E18)
    assert.equal(await agent.publicClient.getBalance({ address: agent.address }), before.eth, 'the burner paid no gas')

    // The same signature again: the first relay, not a second burn.
    const again = await app.post(`/api/gasless/burn`, body)
    assert.equal(again.status, 200)
    assert.equal(again.body.txHash, relayed.body.txHash)
    assert.equal(before.agent - (await agent.coinBalance()), 225_000n * E18)

    // The relay carries both transfers: it redeems as burn and dev at once.
    const portrait = await app.post(`/api/generate`, { burnTxHash: relayed.body.txHash, devTxHash: relayed.body.txHash, burnerAddress: agent.address, image, ...(await agent.signRedeem({ burnTxHash: relayed.body.txHash, devTxHash: relayed.body.txHash, image })) })
    assert.equal(portrait.status, 200, JSON.stringify(portrait.body))
  })

  test('refuses expired deadlines, bad signatures and too small a balance, with 400', async () => {
    const holder = await createAgent(app.url, devnet.url, 4)
    const prepared = (await app.get(`/api/gasless/burn?address=${holder.address}`)).body
    await holder.send({ to: prepared.approval.transaction.to, data: prepared.approval.transaction.data })
    const fresh = (await app.get(`/api/gasless/burn?address=${holder.address}`)).body
    const expired = await app.post(`/api/gasless/burn`, await signBurn(holder, fresh.signTypedData, { deadline: Math.floor(Date.now() / 1000) - 5 }))
    assert.equal(expired.status, 400)
    assert.equal(expired.body.error.code, 'SIGNATURE_EXPIRED')
    const other = await createAgent(app.url, devnet.url, 9)
    const forged = await signBurn(other, fresh.signTypedData)
    const bad = await app.post(`/api/gasless/burn`, { ...forged, burner: holder.address })
    assert.equal(bad.status, 400)
    assert.equal(bad.body.error.code, 'INVALID_SIGNATURE')
    const malformed = await app.post(`/api/gasless/burn`, { burner: holder.address, deadline: fresh.signTypedData.message.deadline, signature: '0x1234' })
    assert.equal(malformed.status, 400)
    assert.equal(malformed.body.error.code, 'INVALID_SIGNATURE')
    const poor = (await app.get(`/api/gasless/burn?address=${other.address}`)).body
    const tooPoor = await app.post(`/api/gasless/burn`, await signBurn(other, poor.signTypedData))
    assert.equal(tooPoor.status, 400)
    assert.equal(tooPoor.body.error.code, 'INSUFFICIENT_BALANCE')
    const badAddress = await app.get(`/api/gasless/burn?address=nope`)
    assert.equal(badAddress.status, 400)
    assert.equal(badAddress.body.error.code, 'INVALID_ADDRESS')
  })
})

describe('gasless burn without enough approval', () => {
  test('enough balance but too small an approval is 400 INSUFFICIENT_BALANCE, and nothing is sent', async () => {
    const holder = await createAgent(app.url, devnet.url, 4)
    await holder.send({ to: devnet.info.contracts.token, data: approveRelayer(225_000n * E18 - 1n) })
    const prepared = (await app.get(`/api/gasless/burn?address=${holder.address}`)).body
    assert.equal(prepared.balance.sufficient, true)
    assert.equal(prepared.approval.status, 'needed')
    assert.equal(prepared.ready, false)
    const balance = await holder.coinBalance()
    const relayer = app.ctx.economy.relayer.address
    const sent = await rpc('eth_getTransactionCount', [relayer, 'pending'])
    const refused = await app.post(`/api/gasless/burn`, await signBurn(holder, prepared.signTypedData))
    assert.equal(refused.status, 400)
    assert.equal(refused.body.error.code, 'INSUFFICIENT_BALANCE')
    assert.match(refused.body.error.message, /approve/i)
    assert.equal(await rpc('eth_getTransactionCount', [relayer, 'pending']), sent, 'no relay sent')
    assert.equal(await holder.coinBalance(), balance)
  })
})

describe('gasless burn after a reverted relay', () => {
  test('a relay that reverts is 500 RELAY_FAILED; that signature stays that relay; a new signature for the same nonce relays and burns once', async () => {
    const burner = await createAgent(app.url, devnet.url, 5)
    await burner.buyTokens('1')
    await burner.send({ to: devnet.info.contracts.token, data: approveRelayer(225_000n * E18) })
    const prepared = (await app.get(`/api/gasless/burn?address=${burner.address}`)).body
    assert.equal(prepared.ready, true)
    const nonce = prepared.signTypedData.message.nonce
    const body = await signBurn(burner, prepared.signTypedData)
    const startBalance = await burner.coinBalance()
    const relayer = app.ctx.economy.relayer.address
    const relayerTxs = async () => Number(await rpc('eth_getTransactionCount', [relayer, 'pending']))
    const sentBefore = await relayerTxs()

    // The checks pass and the relay is sent; the burner revokes the approval with a higher
    // tip, so the revoke is mined first in the same block and the relay reverts.
    await rpc('evm_setAutomine', [false])
    let failed
    try {
      const relay = app.post(`/api/gasless/burn`, body)
      for (let i = 0; i < 400 && (await relayerTxs()) === sentBefore; i++) await new Promise((r) => setTimeout(r, 25))
      assert.equal(await relayerTxs(), sentBefore + 1, 'the relay is pending')
      const wallet = createWalletClient({ account: burner.account, chain: burner.publicClient.chain, transport: http(devnet.url) })
      await wallet.sendTransaction({ to: devnet.info.contracts.token, data: approveRelayer(0n), gas: 100_000n, maxFeePerGas: 500n * 10n ** 9n, maxPriorityFeePerGas: 400n * 10n ** 9n })
      await rpc('evm_mine')
      failed = await relay
    } finally {
      await rpc('evm_setAutomine', [true])
    }
    assert.equal(failed.status, 500, JSON.stringify(failed.body))
    assert.equal(failed.body.error.code, 'RELAY_FAILED')
    assert.equal(await burner.coinBalance(), startBalance, 'nothing burned')

    // The approval is back: the same signature is still the reverted relay, not a new one.
    await burner.send({ to: devnet.info.contracts.token, data: approveRelayer(225_000n * E18) })
    const sentAfterRevert = await relayerTxs()
    const same = await app.post(`/api/gasless/burn`, body)
    assert.equal(same.status, 500)
    assert.equal(same.body.error.code, 'RELAY_FAILED')
    assert.equal(await relayerTxs(), sentAfterRevert, 'no second transaction for the same signature')

    // A new signature (a new deadline) for the same, still unused, relayer nonce relays.
    const fresh = (await app.get(`/api/gasless/burn?address=${burner.address}`)).body
    assert.equal(fresh.signTypedData.message.nonce, nonce)
    const second = await signBurn(burner, fresh.signTypedData, { deadline: Math.max(fresh.signTypedData.message.deadline, body.deadline + 1) })
    const relayed = await app.post(`/api/gasless/burn`, second)
    assert.equal(relayed.status, 200, JSON.stringify(relayed.body))
    const receipt = await burner.publicClient.getTransactionReceipt({ hash: relayed.body.txHash })
    assert.equal(receipt.status, 'success')
    assert.equal(startBalance - (await burner.coinBalance()), 225_000n * E18)
    const again = await app.post(`/api/gasless/burn`, second)
    assert.equal(again.status, 200)
    assert.equal(again.body.txHash, relayed.body.txHash)
    assert.equal(startBalance - (await burner.coinBalance()), 225_000n * E18, 'burned once')
  })
})

describe('the relayer key after a request gave up', () => {
  test('the service records the outcome of a transaction nobody waits for any more', async () => {
    const sender = app.ctx.economy.relayer
    await rpc('evm_setAutomine', [false])
    try {
      await assert.rejects(sender.sendAndWait({ key: 'test:gave-up', to: '0x000000000000000000000000000000000000bEEF', data: '0x', value: 1n }, { timeoutMs: 100 }))
      assert.equal((await sender.find('test:gave-up'))?.status, 'broadcast')
      await rpc('evm_mine')
    } finally {
      await rpc('evm_setAutomine', [true])
    }
    let record = await sender.find('test:gave-up')
    for (let i = 0; i < 100 && record?.status === 'broadcast'; i++) {
      await new Promise((r) => setTimeout(r, 100))
      record = await sender.find('test:gave-up')
    }
    assert.equal(record?.status, 'mined')
    const receipt = (await rpc('eth_getTransactionReceipt', [record!.txHash])) as { blockNumber: string }
    assert.equal(record!.blockNumber, Number(receipt.blockNumber))
  })
})

describe('referral agents', () => {
  test('register with the returned calldata; a user burns with the referral calldata; the agent earns 11,250; the burn redeems', async () => {
    const agent = await createAgent(app.url, devnet.url, 8)
    const registration = await app.post(`/api/agent/register`, { wallet: agent.address, description: 'test agent', ...(await agent.signRegistration('ReferralAgentRegistration', { description: 'test agent' })) })
    assert.equal(registration.status, 200)
    assert.equal(registration.body.alreadyRegistered, false)
    assert.equal(registration.body.registration.transaction.to, devnet.info.contracts.referral)
    // Before the transaction is mined, the agent's reads show the code it was given, not yet active.
    const pending = await app.get(`/api/agent/register?address=${agent.address}`)
    assert.equal(pending.body.registered, false)
    assert.equal(pending.body.referralCode, registration.body.referralCode)
    const pendingStats = await app.get(`/api/agent/referrals?referralCode=${registration.body.referralCode}`)
    assert.deepEqual([pendingStats.body.registered, pendingStats.body.referralCode, pendingStats.body.burnWithReferralCalldata], [false, registration.body.referralCode, null])
    // A wallet that never registered has no code.
    assert.equal((await app.get(`/api/agent/register?address=${testAccount(13).account.address}`)).body.referralCode, null)
    const registerTx = await agent.send({ to: registration.body.registration.transaction.to, data: registration.body.registration.transaction.data })
    // Mined outside the service: the read asks for an answer at least as new as its block.
    const { blockNumber } = (await rpc('eth_getTransactionReceipt', [registerTx])) as { blockNumber: string }
    const status = await app.get(`/api/agent/register?address=${agent.address}&minBlock=${Number(blockNumber)}`)
    assert.equal(status.body.registered, true)
    const code = status.body.referralCode
    assert.equal(code, registration.body.referralCode)

    const user = await createAgent(app.url, devnet.url, 7)
    await user.buyTokens('1')
    const info = await app.get(`/api/agent/referrals?referralCode=${code}`)
    assert.equal(info.status, 200)
    assert.equal(info.body.agent, agent.address)
    assert.equal(info.body.rewardInfo.rewardPerBurnRaw, (11_250n * E18).toString())
    await user.send({ to: devnet.info.contracts.token, data: (await import('viem')).encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [info.body.referralContract, 225_000n * E18] }) })
    const before = await agent.coinBalance()
    const burnTx = await user.send({ to: info.body.referralContract, data: info.body.burnWithReferralCalldata })
    assert.equal((await agent.coinBalance()) - before, 11_250n * E18)
    const stats = await app.get(`/api/agent/referrals?address=${agent.address}`)
    assert.equal(stats.body.stats.referralCount, 1)
    assert.equal(stats.body.stats.totalEarnings, (11_250n * E18).toString())

    const portrait = await app.post(`/api/generate`, { burnTxHash: burnTx, devTxHash: burnTx, burnerAddress: user.address, image, ...(await user.signRedeem({ burnTxHash: burnTx, devTxHash: burnTx, image })) })
    assert.equal(portrait.status, 200, JSON.stringify(portrait.body))
  })

  test('400s of the spec', async () => {
    assert.equal((await app.get(`/api/agent/referrals`)).status, 400)
    assert.equal((await app.get(`/api/agent/register?address=0x1`)).body.error.code, 'INVALID_ADDRESS')
    const badWallet = await app.post(`/api/agent/register`, { wallet: 'bad' })
    assert.equal(badWallet.status, 400)
    assert.equal(badWallet.body.error.code, 'INVALID_ADDRESS')
    const unknownCode = await app.get(`/api/agent/referrals?referralCode=unknownCode1`)
    assert.equal(unknownCode.status, 404)
    assert.equal(unknownCode.body.error.code, 'NOT_FOUND')
  })
})

/** A wallet's own signed early-access registration, as the GET describes it. */
async function registerEarly(wallet: Agent, fields: { twitter?: string; referralCode?: string } = {}, as?: string, on: Pick<TestApp, 'post'> = app) {
  const signed = await wallet.signRegistration('EarlyAccessRegistration', fields)
  return on.post(`/api/early/register`, { wallet: as ?? wallet.address, ...fields, ...signed })
}

describe('early access', () => {
  test('a holder and an NFT owner register (idempotently); an empty wallet gets 403; a bad wallet 400', async () => {
    const holder = await createAgent(app.url, devnet.url, 4)
    const first = await registerEarly(holder, { twitter: '@demo' })
    assert.equal(first.status, 200, JSON.stringify(first.body))
    assert.deepEqual(first.body.eligibility, { hasTokens: true, nftCount: 0, instantAccess: false, path: 'referral' })
    const second = await registerEarly(holder, { twitter: '@other' }, holder.address.toLowerCase())
    assert.equal(second.body.referralCode, first.body.referralCode, 'registering twice is idempotent')
    // Agent 6 spent its tokens on the gasless burn and holds the portrait NFT.
    const nftOwner = await registerEarly(await createAgent(app.url, devnet.url, 6))
    assert.equal(nftOwner.status, 200, JSON.stringify(nftOwner.body))
    assert.equal(nftOwner.body.eligibility.nftCount, 1)
    const empty = await registerEarly(await createAgent(app.url, devnet.url, 9))
    assert.equal(empty.status, 403)
    assert.equal(empty.body.error.code, 'NOT_ELIGIBLE')
    const badEarly = await app.post(`/api/early/register`, { wallet: '0xbad' })
    assert.equal(badEarly.status, 400)
    assert.equal(badEarly.body.error.code, 'INVALID_ADDRESS')
    const info = (await app.get(`/api/early/register`)).body
    assert.equal(info.eligibility.instantAccess, '3+ looksmaxxed NFTs')
    assert.equal(info.registration.signTypedData.primaryType, 'EarlyAccessRegistration')
  })
})

describe('early access codes and NFT eligibility', () => {
  test('a wallet whose first code another wallet holds gets the next candidate; codes never collide', async () => {
    const holder = await createAgent(app.url, devnet.url, 4)
    const wallets = [await createAgent(app.url, devnet.url, 42), await createAgent(app.url, devnet.url, 43), await createAgent(app.url, devnet.url, 44)]
    for (const wallet of wallets) {
      await holder.send({ to: devnet.info.contracts.token, data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [wallet.address, E18] }) })
    }
    // Another wallet already holds the first candidate of wallets[1] (same six hex digits and handle).
    const taken = `${wallets[1]!.address.slice(2, 8).toLowerCase()}twin`
    await app.ctx.db.query(`INSERT INTO early_access (wallet, referral_code, path, signature, signed_at) VALUES ($1, $2, 'referral', '0x', 0)`, [
      getAddress('0xc0ffee000000000000000000000000000000a001'), taken,
    ])
    const first = await registerEarly(wallets[0]!, { twitter: '@twin' })
    const second = await registerEarly(wallets[1]!, { twitter: '@twin' })
    assert.equal(first.status, 200, JSON.stringify(first.body))
    assert.equal(second.status, 200, JSON.stringify(second.body))
    assert.equal(first.body.referralCode, `${wallets[0]!.address.slice(2, 8).toLowerCase()}twin`)
    assert.equal(second.body.referralCode, `${wallets[1]!.address.slice(2, 10).toLowerCase()}twin`, 'the next candidate')
    for (const { body } of [first, second]) {
      assert.match(body.referralCode, /^[a-z0-9]{6,16}$/, 'a code is a valid referralCode input')
      assert.ok(body.referralLink.endsWith(`?ref=${body.referralCode}`))
    }
    // Registering again still returns each wallet's first registration.
    assert.equal((await registerEarly(wallets[1]!, { twitter: '@twin' })).body.referralCode, second.body.referralCode)
    assert.equal((await registerEarly(wallets[0]!)).body.referralCode, first.body.referralCode)
    // A third, referred by the first.
    const referred = await registerEarly(wallets[2]!, { twitter: 'twin', referralCode: first.body.referralCode })
    assert.equal(referred.status, 200, JSON.stringify(referred.body))
    assert.equal(new Set([taken, first.body.referralCode, second.body.referralCode, referred.body.referralCode]).size, 4)
  })

  test('an NFT without tokens opens the referral path; three portraits give instant access', async () => {
    // The devnet deployer holds the minter role of the portrait NFT.
    const minter = createWalletClient({ account: testAccount(0).account, chain: (await createAgent(app.url, devnet.url, 4)).publicClient.chain, transport: http(devnet.url) })
    const reader = (await createAgent(app.url, devnet.url, 4)).publicClient
    const mintAbi = parseAbi(['function mint(address to, string uri) returns (uint256)'])
    const mint = async (to: `0x${string}`) => {
      const hash = await minter.writeContract({ address: devnet.info.contracts.nft, abi: mintAbi, functionName: 'mint', args: [to, 'ipfs://bafkreigh2akiscaildc'] })
      assert.equal((await reader.waitForTransactionReceipt({ hash })).status, 'success')
    }
    const oneNft = await createAgent(app.url, devnet.url, 40)
    const threeNfts = await createAgent(app.url, devnet.url, 41)
    await mint(oneNft.address)
    for (let i = 0; i < 3; i++) await mint(threeNfts.address)
    for (const wallet of [oneNft, threeNfts]) {
      assert.equal(await reader.readContract({ address: devnet.info.contracts.token, abi: erc20Abi, functionName: 'balanceOf', args: [wallet.address] }), 0n, 'no tokens')
    }

    const referral = await registerEarly(oneNft)
    assert.equal(referral.status, 200, JSON.stringify(referral.body))
    assert.deepEqual(referral.body.eligibility, { hasTokens: false, nftCount: 1, instantAccess: false, path: 'referral' })
    const instant = await registerEarly(threeNfts, { twitter: '@bob' })
    assert.equal(instant.status, 200, JSON.stringify(instant.body))
    assert.deepEqual(instant.body.eligibility, { hasTokens: false, nftCount: 3, instantAccess: true, path: 'instant' })
    assert.equal(instant.body.message, 'Instant access granted.')
  })
})

describe('cross-chain intent', () => {
  test('a bridge step, then the local plan; an unknown chain is 400 with the supported list', async () => {
    const wallet = devnet.info.accounts.agents[4]
    const { status, body } = await app.get(`/api/cross-chain/intent?sourceChain=arb&wallet=${wallet}&amount=0.7`)
    assert.equal(status, 200)
    assert.deepEqual(body.sourceChain, { id: 'arbitrum', chainId: 42161 })
    assert.deepEqual(body.steps.map((s: any) => s.action), ['bridge', 'swap', 'burn', 'tren_fund', 'submit'])
    assert.match(body.steps[1].transaction.data, /^0x04e45aaf/)
    const unknown = await app.get(`/api/cross-chain/intent?sourceChain=solana&wallet=${wallet}`)
    assert.equal(unknown.status, 400)
    assert.equal(unknown.body.error.code, 'UNKNOWN_CHAIN')
    assert.ok(unknown.body.error.details.supported.some((c: any) => c.id === 'base'))
  })
})

describe('early access when its store is down', () => {
  test('502 UPSTREAM_FAILED, not a 500', async () => {
    const broken = await app.another()
    try {
      await broken.ctx.db.close()
      const response = await registerEarly(await createAgent(app.url, devnet.url, 4), {}, undefined, broken)
      assert.equal(response.status, 502)
      assert.equal(response.body.error.code, 'UPSTREAM_FAILED')
    } finally {
      await broken.stop().catch(() => {})
    }
  })
})
