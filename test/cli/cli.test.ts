import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { createRequire } from 'node:module'
import path from 'node:path'
import { createPublicClient, http, parseAbi } from 'viem'
import { useDevnetApp } from '../support/devnet-app.ts'
import { testAccount } from '../support/accounts.ts'

const fixture = useDevnetApp()
const bin = path.resolve('bin/burn-to-create.js')
const portrait = path.join(path.dirname(createRequire(import.meta.url).resolve('@vladmandic/face-api/package.json')), 'demo', 'sample1.jpg')
const nftAbi = parseAbi(['function ownerOf(uint256) view returns (address)'])

/** Runs the CLI as a user would (the package's bin), against the test service. */
function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, '--url', fixture.app.url, ...args], { env: { ...process.env, CI: '1', ...env }, timeout: 240_000 }, (error, stdout, stderr) => {
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
  const client = createPublicClient({ transport: http(fixture.devnet.url) })
  const nft = fixture.devnet.info.contracts.nft as `0x${string}`
  assert.equal(await client.readContract({ address: nft, abi: nftAbi, functionName: 'ownerOf', args: [BigInt(result.tokenId)] }), owner)
  const metadata = await fetch(result.metadataUrl)
  assert.equal(metadata.status, 200)
  assert.match(((await metadata.json()) as { image: string }).image, /ipfs|http/)

  // The wallet now holds a portrait and the swap's leftover tokens: stake some (approve, then stake).
  const stake = await cli(['stake', '100', '--venue', 'mogger', '--account', '6', '--json'])
  assert.equal(stake.code, 0, `stderr: ${stake.stderr}`)
  assert.deepEqual(JSON.parse(stake.stdout).executionPlan.map((tx: { functionName: string }) => tx.functionName), ['approve', 'stake'])
  const position = (await (await fetch(`${fixture.app.url}/api/defi/staking?address=${owner}`)).json()) as any
  assert.equal(position.wallet.mogger.staked, (100n * 10n ** 18n).toString())

  // The same burns again: refused by the service (409), the code shown, exit 1, nothing printed on stdout.
  const again = await cli(['looksmaxx', '--image', portrait, '--account', '6', '--burn-tx', result.burnTxHash, '--dev-tx', result.devTxHash])
  assert.equal(again.code, 1)
  assert.match(again.stderr, /error [A-Z_]+ \(HTTP 409\)/)
  assert.equal(again.stdout, '')
})

test('gasless-burn approves once, signs, and the service relays; the relay redeems a portrait', async () => {
  const run = await cli(['gasless-burn', '--account', '4', '--json'])
  assert.equal(run.code, 0, `stderr: ${run.stderr}\nstdout: ${run.stdout}`)
  assert.match(run.stderr, /✔ Approve the relayer/)
  const relay = JSON.parse(run.stdout)
  assert.equal(relay.success, true)
  assert.match(relay.txHash, /^0x[0-9a-f]{64}$/)
  const redeem = await cli(['looksmaxx', '--image', portrait, '--account', '4', '--burn-tx', relay.txHash, '--dev-tx', relay.txHash, '--json'])
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
  const wallet = await cli(['wallet', '--account', '7'])
  assert.equal(wallet.code, 0, wallet.stderr)
  assert.match(wallet.stdout, new RegExp(address))

  const chat = await cli(['chat', 'what', 'is', 'the', 'price', 'of', 'the', 'token?', '--json'])
  assert.equal(chat.code, 0, chat.stderr)
  assert.equal(JSON.parse(chat.stdout).intent, 'price')
})

test('mistakes get a clear message and a non-zero exit, and the key is never printed', async () => {
  const unknown = await cli(['fly'])
  assert.equal(unknown.code, 2)
  assert.match(unknown.stderr, /unknown command "fly"/)

  const noImage = await cli(['looksmaxx'])
  assert.equal(noImage.code, 2)
  assert.match(noImage.stderr, /needs --image/)

  const badKey = await cli(['wallet'], { BURN_TO_CREATE_KEY: '0x1234' })
  assert.equal(badKey.code, 1)
  assert.match(badKey.stderr, /error INVALID_KEY/)

  const key = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d'
  const badAddress = await cli(['wallet', '--address', '0xnot-an-address'], { BURN_TO_CREATE_KEY: key })
  assert.equal(badAddress.code, 1)
  assert.match(badAddress.stderr, /error INVALID_ADDRESS \(HTTP 400\)/)
  assert.ok(!badAddress.stderr.includes(key.slice(2)) && !badAddress.stdout.includes(key.slice(2)))

  const vote = await cli(['vote', '--account', '7'])
  assert.equal(vote.code, 2)
  assert.match(vote.stderr, /vote needs a proposal id/)

  const down = await cli(['price', '--url', 'http://127.0.0.1:9'])
  assert.equal(down.code, 1)
})
