import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { createServer } from 'node:http'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { compiledMain, freePort } from '../support/service-process.ts'
import { coreContractNames } from '../../src/chain/contract-names.ts'
import { onlyInLeg } from '../support/env.ts'

// A refused start-up reaches no backend, so both legs of .ci/run would run the same thing: it
// runs in the embedded leg only.
const skip = onlyInLeg('embedded')

/** Runs the service (dist/main.js, what `npm start` runs, compiled) with env until it exits; returns its exit code and output. */
async function startExpectingExit(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'b2c-config-errors-'))
  const base = { ...process.env }
  for (const key of ['RPC_URL', 'CONTRACTS_FILE', 'DATABASE_URL', 'REDIS_URL', 'IMAGE_PROVIDER', 'IPFS_PROVIDER']) delete base[key]
  const child = spawn(process.execPath, [compiledMain()], {
    env: { ...base, HOST: '127.0.0.1', PORT: String(await freePort()), DEVNET_RPC_PORT: String(await freePort()), DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout!.on('data', (chunk) => (output += chunk))
  child.stderr!.on('data', (chunk) => (output += chunk))
  const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)))
  rmSync(dataDir, { recursive: true, force: true })
  return { code, output }
}

const noStack = (output: string) => assert.doesNotMatch(output, /^\s+at /m, `no stack trace:\n${output}`)

test('a provider without its key stops start-up with exit 78 and a message naming the variable, no stack', { skip }, async () => {
  const { code, output } = await startExpectingExit({ IMAGE_PROVIDER: 'replicate', RPC_URL: 'http://127.0.0.1:9' })
  assert.equal(code, 78)
  assert.match(output, /REPLICATE_API_TOKEN: required when IMAGE_PROVIDER=replicate/)
  noStack(output)
})

test('RPC_URL without CONTRACTS_FILE against a chain that is not the devnet asks for CONTRACTS_FILE (exit 78, no stack)', { skip }, async (t) => {
  // A JSON-RPC server that is a chain, but not the embedded devnet: devnet_info is unknown.
  const server = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk) => (body += chunk))
    request.on('end', () => {
      const { id, method } = JSON.parse(body) as { id: number; method: string }
      response.setHeader('content-type', 'application/json')
      response.end(
        JSON.stringify(
          method === 'eth_chainId'
            ? { jsonrpc: '2.0', id, result: '0x10e6' }
            : { jsonrpc: '2.0', id, error: { code: -32601, message: `the method ${method} does not exist/is not available` } },
        ),
      )
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.after(() => server.close())
  const { port } = server.address() as { port: number }
  const rpcUrl = `http://127.0.0.1:${port}/v1/secret-provider-key`
  const { code, output } = await startExpectingExit({ RPC_URL: rpcUrl })
  assert.equal(code, 78)
  assert.match(output, /CONTRACTS_FILE: required when RPC_URL is not the embedded devnet/)
  assert.ok(!output.includes('secret-provider-key'), 'RPC_URL (which may carry a key) is not printed')
  noStack(output)
})

test('what a variable points at cannot be used: exit 1 with "Could not start", the variable named, no stack, no password', { skip }, async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'b2c-startup-'))
  try {
    const key = (n: number) => `0x${String(n).repeat(64)}`
    const address = (n: number) => `0x${String(n).repeat(40)}`
    const production = { RPC_URL: 'http://127.0.0.1:9/v1/provider-key', MINTER_PRIVATE_KEY: key(1), RELAYER_PRIVATE_KEY: key(2), FACILITATOR_PRIVATE_KEY: key(3) }
    const valid = path.join(dir, 'contracts.json')
    writeFileSync(valid, JSON.stringify({ contracts: Object.fromEntries(coreContractNames.map((name, i) => [name, address((i % 9) + 1)])), fundWallet: address(4), facilitator: address(5) }))
    const notJson = path.join(dir, 'broken.json')
    writeFileSync(notJson, '{ "contracts": ')
    const wrongShape = path.join(dir, 'wrong.json')
    writeFileSync(wrongShape, JSON.stringify({ contracts: { token: '0x12' } }))
    const [missing, broken, wrong, database, redis] = await Promise.all([
      startExpectingExit({ ...production, CONTRACTS_FILE: path.join(dir, 'nope.json') }),
      startExpectingExit({ ...production, CONTRACTS_FILE: notJson }),
      startExpectingExit({ ...production, CONTRACTS_FILE: wrongShape }),
      startExpectingExit({ ...production, CONTRACTS_FILE: valid, DATABASE_URL: 'postgres://postgres:DbSecretPw@127.0.0.1:9/nodb' }),
      startExpectingExit({ ...production, CONTRACTS_FILE: valid, REDIS_URL: 'redis://:DbSecretPw@127.0.0.1:9' }),
    ])
    for (const [run, expected] of [
      [missing, /Could not start: CONTRACTS_FILE: cannot use .*nope\.json: no such file/],
      [broken, /Could not start: CONTRACTS_FILE: cannot use .*broken\.json: not JSON/],
      [wrong, /Could not start: CONTRACTS_FILE: cannot use .*wrong\.json: not a deployment file .*contracts\.token/],
      [database, /Could not start: DATABASE_URL: cannot open the database at postgres:\/\/\*\*\*@127\.0\.0\.1:9\/…: /],
      [redis, /Could not start: REDIS_URL: cannot connect to redis:\/\/\*\*\*@127\.0\.0\.1:9: /],
    ] as const) {
      assert.equal(run.code, 1, run.output)
      assert.match(run.output, expected)
      noStack(run.output)
      assert.doesNotMatch(run.output, /DbSecretPw|provider-key/)
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
