import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { createRequire } from 'node:module'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { createPublicClient, http } from 'viem'
import { useApp } from '../support/harness.ts'
import { testAccount } from '../support/accounts.ts'
import { DELIVERY_RECEIPT, X402_RECEIPT, verifyReceipts } from '../../src/cli/receipts.ts'

const app = useApp()
const bin = path.resolve('bin/burn-to-create.js')
const portrait = path.join(path.dirname(createRequire(import.meta.url).resolve('@vladmandic/face-api/package.json')), 'demo', 'sample1.jpg')

/** Runs the CLI as a user would, with a state file of its own. */
function cli(args: string[], state: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, '--url', app.url, ...args], { env: { ...process.env, CI: '1', BURN_TO_CREATE_STATE: state }, timeout: 240_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0
      resolve({ code, stdout, stderr })
    })
  })
}

async function stateFile() {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'b2c-state-'))
  return { file: path.join(dir, 'state.json'), remove: () => rm(dir, { recursive: true, force: true }) }
}

const nonceOf = (address: `0x${string}`) => createPublicClient({ transport: http(app.devnet.url) }).getTransactionCount({ address })

test('a looksmaxx over --max-eth or --max-usdm is refused before any transaction, saying which cap (exit 2)', async () => {
  const state = await stateFile()
  const wallet = testAccount(7).account.address
  const nonce = await nonceOf(wallet)
  // Account 7 holds no tokens: the plan swaps ETH for them, far more than a micro-ether.
  const overEth = await cli(['looksmaxx', '--image', portrait, '--account', '7', '--max-eth', '0.000001', '--json'], state.file)
  assert.equal(overEth.code, 2, overEth.stderr)
  assert.match(overEth.stderr, /error MAX_ETH_EXCEEDED: --max-eth 0\.000001: this looksmaxx would spend [\d.]+ ETH\. Nothing was sent\./)
  assert.equal(JSON.parse(overEth.stdout).error.code, 'MAX_ETH_EXCEEDED')
  assert.doesNotMatch(overEth.stderr, /✔ Swap|✔ Burn/)
  assert.equal(await nonceOf(wallet), nonce, 'no transaction left the wallet')

  const overUsdm = await cli(['looksmaxx', '--image', portrait, '--account', '7', '--max-usdm', '0.5'], state.file)
  assert.equal(overUsdm.code, 2)
  assert.match(overUsdm.stderr, /error MAX_USDM_EXCEEDED: --max-usdm 0\.5: this looksmaxx would pay 1 USDm\. Nothing was sent\./)
  assert.equal(await nonceOf(wallet), nonce)

  const malformed = await cli(['looksmaxx', '--image', portrait, '--account', '7', '--max-eth', 'lots'], state.file)
  assert.equal(malformed.code, 2)
  assert.match(malformed.stderr, /--max-eth takes an amount of ETH/)
  await state.remove()
})

test('a looksmaxx within the caps verifies and prints its receipts, counts what it spent, and a daily cap then refuses the next', async () => {
  const state = await stateFile()
  const account = testAccount(6).account
  const run = await cli(['looksmaxx', '--image', portrait, '--account', '6', '--max-eth', '10', '--max-usdm', '1'], state.file)
  assert.equal(run.code, 0, `stderr: ${run.stderr}\nstdout: ${run.stdout}`)
  assert.match(run.stderr, /✔ Verify the receipts/)
  assert.match(run.stdout, /x402 receipt: +verified \(signed by 0x[0-9a-fA-F]{40}\)/)
  assert.match(run.stdout, /delivery receipt: verified/)
  const burnTxHash = /feedback (0x[0-9a-f]{64})/.exec(run.stdout)?.[1]
  assert.ok(burnTxHash, run.stdout)

  // Today's spending, as the state file counts it: the swap's ETH and the 1 USDm fee.
  const limits = await cli(['limits', '--account', '6', '--json'], state.file)
  assert.equal(limits.code, 0, limits.stderr)
  const spent = JSON.parse(limits.stdout).spentToday
  assert.equal(spent.address, account.address)
  assert.equal(spent.usdm, (10n ** 18n).toString())
  assert.ok(BigInt(spent.eth) > 0n)

  // A daily USDm cap of 1.5: the next looksmaxx (1 more USDm) is refused before anything is sent.
  assert.equal((await cli(['limits', '--daily-usdm', '1.5', '--account', '6'], state.file)).code, 0)
  const nonce = await nonceOf(account.address)
  const over = await cli(['looksmaxx', '--image', portrait, '--account', '6', '--json'], state.file)
  assert.equal(over.code, 2, over.stderr)
  assert.match(over.stderr, /error DAILY_USDM_EXCEEDED: daily USDm cap 1\.5 USDm \(burn-to-create limits\): 0x[0-9a-fA-F]{40} paid 1 USDm today \(UTC\) and this looksmaxx would pay 1 USDm more\. Nothing was sent\./)
  assert.equal(await nonceOf(account.address), nonce)
  assert.equal((await cli(['limits', '--daily-usdm', 'off', '--account', '6'], state.file)).code, 0)

  // Read back later: the same receipts, verified again; then rated with them.
  const again = await cli(['receipt', burnTxHash, '--json'], state.file)
  assert.equal(again.code, 0, again.stderr)
  const shown = JSON.parse(again.stdout)
  assert.equal(shown.verified, true)
  const { result } = (await app.get(`/api/x402/looksmaxx/${burnTxHash}`)).body
  assert.deepEqual(shown.receipts, result.receipts)

  // The CLI's check refuses changed receipts, another key, and receipts of another token.
  const key = shown.signer
  const expected = { tokenId: result.tokenId, burnTxHash: result.burnTxHash, devTxHash: result.devTxHash, mintTxHash: result.mintTxHash, payer: account.address }
  assert.equal((await verifyReceipts(result.receipts, key, expected)).length, 2)
  const forged = structuredClone(result.receipts)
  forged.delivery.payload.delivery.tokenId = String(BigInt(result.tokenId) + 1n)
  await assert.rejects(verifyReceipts(forged, key, { ...expected, tokenId: forged.delivery.payload.delivery.tokenId }), (e: any) => e.code === 'RECEIPT_INVALID' && /not signed by the published receipt key/.test(e.message))
  await assert.rejects(verifyReceipts(result.receipts, testAccount(3).account.address, expected), (e: any) => e.code === 'RECEIPT_INVALID')
  await assert.rejects(verifyReceipts(result.receipts, key, { ...expected, tokenId: '999999' }), /names token/)

  const rated = await cli(['feedback', burnTxHash, '--account', '6', '--json'], state.file)
  assert.equal(rated.code, 0, rated.stderr)
  assert.equal(JSON.parse(rated.stdout).transactions.length, 1)
  await app.ctx.indexer.sync()
  const info = (await app.get('/api/agent/info')).body
  assert.deepEqual(info.onChain.reputation, { score: 100, count: 1 })
  await state.remove()
})

test('the CLI pins the receipt types the service publishes', async () => {
  const schema = (await app.get('/.well-known/receipts.json')).body
  assert.deepEqual({ domain: schema.delivery.domain, primaryType: schema.delivery.primaryType, types: schema.delivery.types }, DELIVERY_RECEIPT)
  assert.deepEqual({ domain: schema.x402.receipt.domain, primaryType: schema.x402.receipt.primaryType, types: schema.x402.receipt.types }, X402_RECEIPT)
})
