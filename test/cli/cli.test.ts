import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { createRequire } from 'node:module'
import { writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { createPublicClient, encodeFunctionData, http, parseAbi } from 'viem'
import { useApp } from '../support/harness.ts'
import { testAccount } from '../support/accounts.ts'
import { connectWallet, WalletError, withGasHeadroom } from '../../src/cli/wallet.ts'

const app = useApp()
const bin = path.resolve('bin/burn-to-create.js')
const portrait = path.join(path.dirname(createRequire(import.meta.url).resolve('@vladmandic/face-api/package.json')), 'demo', 'sample1.jpg')
const nftAbi = parseAbi(['function ownerOf(uint256) view returns (address)'])
const tokenAbi = parseAbi(['function balanceOf(address) view returns (uint256)', 'function transfer(address, uint256) returns (bool)'])

/** Runs the CLI as a user would (the package's bin), against the test service. */
function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, '--url', app.url, ...args], { env: { ...process.env, CI: '1', ...env }, timeout: 240_000 }, (error, stdout, stderr) => {
      // A kill (the timeout) has no exit code: say so rather than pass for an ordinary failure.
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0
      resolve({ code, stdout, stderr: error && code === -1 ? `${stderr}\n[killed: ${error.signal ?? error.message}]` : stderr })
    })
  })
}

test('looksmaxx end to end: quote, swap, burn, transfer, pay, submit, status; the NFT is the wallet\'s and its metadata resolves', async () => {
  const owner = testAccount(6).account.address
  const run = await cli(['looksmaxx', '--image', portrait, '--account', '6', '--json'])
  assert.equal(run.code, 0, `stderr: ${run.stderr}\nstdout: ${run.stdout}`)
  for (const step of ['Quote', 'Swap ETH for tokens', 'Burn 112,500 tokens', 'Transfer 112,500 tokens to the fund', 'Sign the 1 USDm payment', 'Submit the portrait', 'Status']) {
    assert.match(run.stderr, new RegExp(`✔ ${step}`), `step "${step}" shown`)
  }
  const result = JSON.parse(run.stdout)
  assert.equal(result.success, true)
  const client = createPublicClient({ transport: http(app.devnet.url) })
  const nft = app.devnet.info.contracts.nft as `0x${string}`
  assert.equal(await client.readContract({ address: nft, abi: nftAbi, functionName: 'ownerOf', args: [BigInt(result.tokenId)] }), owner)
  const metadata = await fetch(result.metadataUrl)
  assert.equal(metadata.status, 200)
  assert.match(((await metadata.json()) as { image: string }).image, /ipfs|http/)

  // The wallet now holds a portrait and the swap's leftover tokens: stake some (approve, then stake).
  const stake = await cli(['stake', '100', '--venue', 'mogger', '--account', '6', '--json'])
  assert.equal(stake.code, 0, `stderr: ${stake.stderr}`)
  assert.deepEqual(JSON.parse(stake.stdout).executionPlan.map((tx: { functionName: string }) => tx.functionName), ['approve', 'stake'])
  const position = (await (await fetch(`${app.url}/api/defi/staking?address=${owner}`)).json()) as any
  assert.equal(position.wallet.mogger.staked, (100n * 10n ** 18n).toString())

  // The same burns again: refused by the service (409), the code and the status link shown, and
  // no retry hint (the same burns can only be refused again); with --json the service's error
  // body on stdout, exit 1.
  const again = await cli(['looksmaxx', '--image', portrait, '--account', '6', '--burn-tx', result.burnTxHash, '--dev-tx', result.devTxHash, '--json'])
  assert.equal(again.code, 1)
  assert.match(again.stderr, /error BURN_ALREADY_USED \(HTTP 409\)/)
  const statusUrl = `${app.url}/api/x402/looksmaxx/${result.burnTxHash}`
  assert.ok(again.stderr.includes(`status: ${statusUrl}`), again.stderr)
  assert.doesNotMatch(again.stderr, /retry/i)
  const refused = JSON.parse(again.stdout)
  assert.equal(refused.error.code, 'BURN_ALREADY_USED')
  assert.equal(refused.error.status, 409)
  assert.equal(refused.error.details.statusUrl, statusUrl)
  assert.equal(refused.error.hints, undefined)
})

test('gasless-burn approves once, signs, and the service relays; the relay redeems a portrait with the command it printed', async () => {
  const run = await cli(['gasless-burn', '--account', '4'])
  assert.equal(run.code, 0, `stderr: ${run.stderr}\nstdout: ${run.stdout}`)
  assert.match(run.stderr, /✔ Approve the relayer/)
  // The printed command carries the signer (--account 4): run as printed, it redeems.
  const printed = /Redeem a portrait with: burn-to-create (.+)/.exec(run.stdout)?.[1]
  assert.ok(printed, run.stdout)
  const args = printed.split(' ')
  assert.deepEqual(args.slice(-2), ['--account', '4'])
  const txHash = args[args.indexOf('--burn-tx') + 1]!
  assert.match(txHash, /^0x[0-9a-f]{64}$/)

  // A refusal that consumes nothing (the service cannot read the image, whose first bytes are a
  // JPEG's): the retry hint with the burns and the signer.
  const truncated = path.join(os.tmpdir(), `cli-truncated-${process.pid}.jpg`)
  await writeFile(truncated, Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0, 0, 0]))
  const bad = await cli(['looksmaxx', '--image', truncated, '--account', '4', '--burn-tx', txHash, '--dev-tx', txHash])
  assert.equal(bad.code, 1, bad.stderr)
  assert.match(bad.stderr, /error INVALID_IMAGE \(HTTP 400\)/)
  assert.ok(bad.stderr.includes(`retry with: burn-to-create looksmaxx --image <file> --burn-tx ${txHash} --dev-tx ${txHash} --url ${app.url} --account 4`), bad.stderr)

  const redeem = await cli([...args.map((a) => (a === '<file>' ? portrait : a)), '--json'])
  assert.equal(redeem.code, 0, redeem.stderr)
  assert.ok(JSON.parse(redeem.stdout).tokenId)
})

test('price, plan, wallet and chat print what the API answers', async () => {
  const price = await cli(['price', '--json'])
  assert.equal(price.code, 0, price.stderr)
  assert.ok(JSON.parse(price.stdout).price.coinPerEth > 0)
  const human = await cli(['price'])
  assert.match(human.stdout, /A portrait burns 225,000 tokens/)

  const address = testAccount(7).account.address
  const plan = JSON.parse((await cli(['plan', '--address', address, '--json'])).stdout)
  assert.deepEqual(plan.steps.map((s: { action: string }) => s.action), ['swap', 'burn', 'tren_fund', 'submit'])
  // Whether --account is allowed is decided from the RPC the service advertises (local here),
  // not from --rpc (a documentation address; wallet reads through the API only).
  const wallet = await cli(['wallet', '--account', '7', '--rpc', 'http://192.0.2.1:8545'])
  assert.equal(wallet.code, 0, wallet.stderr)
  assert.match(wallet.stdout, new RegExp(address))

  const chat = await cli(['chat', 'what', 'is', 'the', 'price', 'of', 'the', 'token?', '--json'])
  assert.equal(chat.code, 0, chat.stderr)
  assert.equal(JSON.parse(chat.stdout).intent, 'price')
})

test('mistakes get a clear message and a non-zero exit, and the key is never printed', async () => {
  const fake = path.join(os.tmpdir(), `cli-fake-${process.pid}.jpg`)
  await writeFile(fake, '# not an image\n')
  const client = createPublicClient({ transport: http(app.devnet.url) })
  const account7 = testAccount(7).account.address
  const nonceBefore = await client.getTransactionCount({ address: account7 })

  // Usage mistakes (exit 2), each naming its option; independent, so run together.
  const key = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d'
  const [unknown, none, noImage, badUrl, badAccount, badKeyFlag, badKeyEnv, emptyChat, badRpc, vote, fakeImage, smallEth] = await Promise.all([
    cli(['fly']),
    cli([]),
    cli(['looksmaxx']),
    cli(['price', '--url', '127.0.0.1:3101']),
    cli(['wallet', '--account', 'abc', '--json']),
    cli(['wallet', '--key', '0xzz']),
    cli(['wallet'], { BURN_TO_CREATE_KEY: '0x1234' }),
    cli(['chat', '']),
    cli(['stake', '1', '--rpc', 'notaurl']),
    cli(['vote', '--account', '7']),
    cli(['looksmaxx', '--image', fake, '--account', '7']),
    cli(['looksmaxx', '--image', portrait, '--account', '7', '--eth', '0.1']),
  ])
  const usage: Array<[typeof unknown, RegExp]> = [
    [unknown, /unknown command "fly"/],
    [noImage, /needs --image/],
    [badUrl, /error INVALID_URL: --url "127\.0\.0\.1:3101" is not an http\(s\) URL/],
    [badAccount, /error INVALID_ACCOUNT: --account takes a devnet account index/],
    [badKeyFlag, /error INVALID_KEY: --key must be a private key/],
    [badKeyEnv, /error INVALID_KEY: BURN_TO_CREATE_KEY must be a private key/],
    [emptyChat, /chat needs a message/],
    [badRpc, /error INVALID_URL: --rpc "notaurl"/],
    [vote, /vote needs a proposal id/],
    // The content is checked before any transaction, whatever the file is called.
    [fakeImage, /error INVALID_IMAGE: --image .*not a JPEG, PNG or WebP/],
    // 0.1 ETH cannot buy 225,000 tokens: refused after the quote, with the ETH that is enough.
    [smallEth, /error INSUFFICIENT_ETH_AMOUNT: --eth 0\.1 is not enough.*Nothing was sent\. [\d.]+ ETH is enough/s],
  ]
  for (const [run, message] of usage) {
    assert.equal(run.code, 2, run.stderr)
    assert.match(run.stderr, message)
  }
  // No command: the help on stderr with exit 2, nothing on stdout.
  assert.equal(none.code, 2)
  assert.equal(none.stdout, '')
  assert.match(none.stderr, /burn-to-create <command>/)
  // --json: a failure is the service's error shape on stdout.
  assert.deepEqual(JSON.parse(badAccount.stdout).error.code, 'INVALID_ACCOUNT')
  assert.equal(badUrl.stdout, '')
  assert.doesNotMatch(smallEth.stderr, /✔ Swap/)
  assert.equal(await client.getTransactionCount({ address: account7 }), nonceBefore, 'nothing was sent from account 7')

  const [badAddress, fewTokens, down] = await Promise.all([
    cli(['wallet', '--address', '0xnot-an-address'], { BURN_TO_CREATE_KEY: key }),
    // Too few tokens is the wallet's state, not a usage mistake: exit 1, the balance as wallet prints it.
    cli(['gasless-burn', '--account', '7']),
    cli(['price', '--url', 'http://127.0.0.1:9']),
  ])
  assert.equal(badAddress.code, 1)
  assert.match(badAddress.stderr, /error INVALID_ADDRESS \(HTTP 400\)/)
  assert.ok(!badAddress.stderr.includes(key.slice(2)) && !badAddress.stdout.includes(key.slice(2)))
  assert.equal(fewTokens.code, 1, fewTokens.stderr)
  assert.match(fewTokens.stderr, /error INSUFFICIENT_TOKENS: 0x[0-9a-fA-F]{40} holds [\d,]+(\.\d{1,2})? tokens; a burn needs 225,000/)
  assert.doesNotMatch(fewTokens.stderr, /Run burn-to-create help/)
  assert.equal(down.code, 1)
})

test('a step is sent with gas headroom over its estimate, so a call that costs more a second later does not run out', async () => {
  const { account } = testAccount(7)
  const wallet = connectWallet({ name: 'devnet', chainId: app.devnet.info.chainId, rpc: app.devnet.url }, account)
  const token = app.devnet.info.contracts.token as `0x${string}`
  const data = encodeFunctionData({ abi: tokenAbi, functionName: 'transfer', args: ['0x000000000000000000000000000000000000dEaD', 0n] })
  const estimate = await wallet.publicClient.estimateGas({ account: account.address, to: token, data })
  const { hash } = await wallet.send({ to: token, data, functionName: 'transfer' })
  const sent = await wallet.publicClient.getTransaction({ hash })
  assert.equal(sent.gas, withGasHeadroom(estimate))
  assert.ok(sent.gas >= estimate + 25_000n, `gas ${sent.gas} for an estimate of ${estimate}`)
})

test('a transfer reverted for want of tokens is explained, not left as an unrecognized custom error', async () => {
  const { account } = testAccount(7)
  const wallet = connectWallet({ name: 'devnet', chainId: app.devnet.info.chainId, rpc: app.devnet.url }, account)
  const token = app.devnet.info.contracts.token as `0x${string}`
  const held = await wallet.publicClient.readContract({ address: token, abi: tokenAbi, functionName: 'balanceOf', args: [account.address] })
  const data = encodeFunctionData({ abi: tokenAbi, functionName: 'transfer', args: ['0x000000000000000000000000000000000000dEaD', held + 1n] })
  await assert.rejects(wallet.send({ to: token, data, functionName: 'transfer' }), (error: unknown) => {
    assert.ok(error instanceof WalletError)
    assert.equal(error.code, 'INSUFFICIENT_TOKENS')
    assert.match(error.message, new RegExp(`could not send transfer: ${account.address} holds [\\d,.]+ tokens and the transfer needs [\\d,.]+ \\(ERC20InsufficientBalance\\)`))
    return true
  })
})
