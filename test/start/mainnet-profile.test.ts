import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Writable } from 'node:stream'
import pino from 'pino'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { loadConfig } from '../../src/config/load.ts'
import { NETWORK_PROFILES } from '../../src/config/network-profile.ts'
import { readDeploymentFile, withContractOverrides } from '../../src/chain/deployment.ts'
import { coreContractNames, optionalContractNames } from '../../src/chain/contract-names.ts'
import { PERMIT2_ADDRESS, X402_EXACT_PERMIT2_PROXY } from '../../src/chain/constants.ts'
import { DEVNET_PRIVATE_KEYS } from '../../src/chain/devnet-accounts.ts'
import { buildApp, releaseDevnet, testDevnet, type TestApp } from '../support/harness.ts'
import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { existsSync } from 'node:fs'
import { compiledMain } from '../support/service-process.ts'

/**
 * Issue 25, the mainnet profile: NETWORK=megaeth reads deploy/megaeth.json (every recorded
 * MegaETH address, the DeFi side absent), variables set override it, and an operation whose
 * contract is absent answers 503 NOT_DEPLOYED on every surface.
 */

const keys = { MINTER_PRIVATE_KEY: DEVNET_PRIVATE_KEYS[0], RELAYER_PRIVATE_KEY: DEVNET_PRIVATE_KEYS[1], FACILITATOR_PRIVATE_KEY: DEVNET_PRIVATE_KEYS[2] }

/** chain-facts §1.1, written out here so that a typo in the profile fails this test. */
const MAINNET = {
  token: '0x374A17bd16B5cD76aaeFC9EAF76aE07e9aF3d888',
  nft: '0x1f1eFd3476b95091B9332b2d36a24bDE12CC6296',
  usdm: '0xFAfDdbb3FC7688494971a79cc65DCa3EF82079E7',
  usdmForwarder: '0x2c2d8EF0664432BA243deF0b8f60aF7aB43a60B4',
  relayer: '0x87d67c0A351FeB2bB9F6985D55665544F94ebC9F',
  referral: '0xf85004d10AbA6200669FeB12C81d356027312181',
  quoterV2: '0x1F1a8dC7E138C34b503Ca080962aC10B75384a27',
  swapRouter: '0xE5BbEF8De2DB447a7432A47EBa58924d94eE470e',
  weth: '0x4200000000000000000000000000000000000006',
  identityRegistry: '0x8004A169FB4a3325136EB29fA0ceB6D2e539a432',
  reputationRegistry: '0x8004BAa17C55a88189AE136b182e5fdA19dE9b63',
  names: '0x2dA389bD4BB21c8F6a6c0407AcE3e87e7a0B65e1',
  pool: '0x1c08a462e50532640441b4fc64385e610ba3a78d',
}
const lower = (a: string | undefined) => a?.toLowerCase()

test('NETWORK=megaeth: the shipped profile, chain 4326, the public RPC and explorer, every recorded address, the DeFi side absent', async () => {
  const config = loadConfig({ NETWORK: 'megaeth', ...keys })
  assert.equal(config.CONTRACTS_FILE, NETWORK_PROFILES.megaeth)
  assert.match(config.CONTRACTS_FILE!, /deploy\/megaeth\.json$/)
  assert.equal(config.RPC_URL, 'https://mainnet.megaeth.com/rpc')
  assert.equal(config.PUBLIC_RPC_URL, 'https://mainnet.megaeth.com/rpc')
  assert.equal(config.EXPLORER_URL, 'https://megaexplorer.xyz')
  assert.equal(config.RPC_WS_URL, 'wss://mainnet.megaeth.com/ws', 'new heads from the public websocket wake the indexer')
  assert.equal(config.START_BLOCK, 0, 'no deployment block is recorded: the documented default, from block 0')

  const raw = JSON.parse(await readFile(NETWORK_PROFILES.megaeth, 'utf8'))
  assert.equal(raw.network.chainId, 4326)
  assert.equal(raw.network.ws, 'wss://mainnet.megaeth.com/ws')
  assert.equal(raw.canonical.permit2, PERMIT2_ADDRESS)
  assert.equal(raw.canonical.x402ExactPermit2Proxy, X402_EXACT_PERMIT2_PROXY)
  assert.equal(lower(raw.canonical.warrenStorageRegistry), lower('0xb7f14622ea97b26524BE743Ab6D9FA519Afbe756'))

  const deployment = await readDeploymentFile(config.CONTRACTS_FILE!)
  for (const [name, address] of Object.entries(MAINNET)) assert.equal(lower(deployment.contracts[name as keyof typeof MAINNET]), lower(address), name)
  assert.equal(deployment.fundWallet, '0x85bf9272DEA7dff1781F71473187b96c6f2f370C')
  assert.equal(deployment.facilitator, '0x8E7769D440b3460b92159Dd9C6D17302b036e2d6')
  assert.equal(deployment.agentId, '12408')
  assert.equal(deployment.devnet, undefined)
  for (const name of coreContractNames) assert.ok(deployment.contracts[name], `${name} has an address`)
  for (const name of optionalContractNames) assert.equal(deployment.contracts[name], undefined, `${name} is absent, not invented`)
})

test('a variable set overrides the profile; the default npm start reads no profile and needs no network', () => {
  const config = loadConfig({ NETWORK: 'megaeth', ...keys, RPC_URL: 'http://127.0.0.1:8545', START_BLOCK: '1234', EXPLORER_URL: 'https://explorer.example', PUBLIC_RPC_URL: 'http://127.0.0.1:8545' })
  assert.equal(config.RPC_URL, 'http://127.0.0.1:8545')
  assert.equal(config.PUBLIC_RPC_URL, 'http://127.0.0.1:8545')
  assert.equal(config.START_BLOCK, 1234)
  assert.equal(config.EXPLORER_URL, 'https://explorer.example')
  assert.equal(config.CONTRACTS_FILE, NETWORK_PROFILES.megaeth, 'the addresses stay those of the profile')
  assert.equal(config.RPC_WS_URL, undefined, 'another node than the public RPC: the public chain\'s heads must not wake it')

  const plain = loadConfig({})
  assert.equal(plain.NETWORK, 'devnet')
  assert.equal(plain.RPC_URL, undefined, 'unset: the embedded devnet')
  assert.equal(plain.CONTRACTS_FILE, undefined)
  assert.equal(plain.START_BLOCK, undefined)

  // The profile is a real chain: the hot keys have no default there.
  assert.throws(() => loadConfig({ NETWORK: 'megaeth' }), /MINTER_PRIVATE_KEY: required when CONTRACTS_FILE is set/)
})

test('CONTRACT_ADDRESSES supplies an absent contract or removes an optional one; a core contract cannot be removed', async () => {
  const config = loadConfig({ NETWORK: 'megaeth', ...keys, CONTRACT_ADDRESSES: 'pair=0x1111111111111111111111111111111111111111, governance=none' })
  const deployment = withContractOverrides(await readDeploymentFile(config.CONTRACTS_FILE!), config.CONTRACT_ADDRESSES)
  assert.equal(deployment.contracts.pair, '0x1111111111111111111111111111111111111111')
  assert.equal(deployment.contracts.governance, undefined)
  assert.equal(deployment.contracts.token, MAINNET.token)
  assert.throws(() => withContractOverrides(deployment, { token: null }), /token cannot be removed/)
  assert.throws(() => withContractOverrides(deployment, { pairr: '0x1111111111111111111111111111111111111111' }), /"pairr" is no contract name/)
  assert.throws(() => loadConfig({ CONTRACT_ADDRESSES: 'pair=0x12' }), /CONTRACT_ADDRESSES: expected name=0x/)
})

/**
 * The service on the devnet as an operator would run the profile against it: NETWORK=megaeth
 * with RPC_URL and CONTRACTS_FILE set (they override the profile), the file holding the
 * devnet's core contracts and, as on mainnet, none of the DeFi side.
 */
let app: TestApp & { stop(): Promise<void> }
let dir: string
let client: Client
const logLines: Array<Record<string, unknown>> = []

before(async () => {
  const devnet = await testDevnet()
  dir = await mkdtemp(path.join(tmpdir(), 'b2c-mainnet-profile-'))
  const core = Object.fromEntries(coreContractNames.map((name) => [name, devnet.info.contracts[name]]))
  const file = path.join(dir, 'contracts.json')
  await writeFile(file, JSON.stringify({
    network: { chainId: 4326, startBlock: devnet.info.deployBlock },
    contracts: { ...core, ...Object.fromEntries(optionalContractNames.map((name) => [name, null])) },
    fundWallet: devnet.info.accounts.fundWallet,
    facilitator: devnet.info.accounts.facilitator,
    agentId: devnet.info.agentId,
  }))
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) logLines.push(JSON.parse(line))
      done()
    },
  })
  app = await buildApp(devnet, { env: { NETWORK: 'megaeth', CONTRACTS_FILE: file, PUBLIC_RPC_URL: devnet.url, ...keys }, log: pino({ level: 'warn' }, sink) })
  client = new Client({ name: 'mainnet-profile-test', version: '1.0.0' })
  await client.connect(new StreamableHTTPClientTransport(new URL(`${app.url}/api/mcp`)))
})
after(async () => {
  await client?.close()
  await app?.stop()
  await releaseDevnet()
  if (dir) await rm(dir, { recursive: true, force: true })
})

const notDeployedMessage = /Not deployed on this network: .*\(moggerStaking\).*\(jesterStaking\).*\(pair\)\. The operator supplies their addresses with CONTRACT_ADDRESSES=moggerStaking=0x…,jesterStaking=0x…,pair=0x…/

test('start-up logs one line naming every missing contract and the operations that answer NOT_DEPLOYED', () => {
  const lines = logLines.filter((line) => String(line.msg).startsWith('not deployed on this network'))
  assert.equal(lines.length, 1, JSON.stringify(logLines))
  const line = lines[0]!
  assert.deepEqual(line.missing, [...optionalContractNames])
  assert.match(String(line.msg), /secondToken, uniswapV3Factory, positionManager, moggerStaking, .*circuitBreaker; \d+ operations that need them answer 503 NOT_DEPLOYED until CONTRACT_ADDRESSES/)
  assert.ok((line.operations as string[]).includes('get_defi_staking'))
  assert.ok(!(line.operations as string[]).includes('get_price'))
  // The indexer, the senders and the reads run without the absent contracts: nothing failed.
  assert.deepEqual(logLines.filter((l) => Number(l.level) >= 50), [])
})

test('HTTP: an operation whose contract is absent answers 503 NOT_DEPLOYED naming it and the variable, before reading its input', async () => {
  const staking = await app.get('/api/defi/staking')
  assert.equal(staking.status, 503)
  assert.equal(staking.body.error.code, 'NOT_DEPLOYED')
  assert.match(staking.body.error.message, notDeployedMessage)
  assert.deepEqual(staking.body.error.details.contracts, ['moggerStaking', 'jesterStaking', 'pair'])
  assert.equal(staking.body.error.details.variable, 'CONTRACT_ADDRESSES')

  const swap = await app.get('/api/defi/amm/swap-tx?from=nonsense')
  assert.equal(swap.status, 503, 'no input makes it work here: NOT_DEPLOYED, not INVALID_INPUT')
  assert.equal(swap.body.error.code, 'NOT_DEPLOYED')
  assert.deepEqual(swap.body.error.details.contracts, ['pair', 'secondToken'])

  const propose = await app.post('/api/defi/governance/propose-tx', { description: 'x' })
  assert.equal(propose.status, 503, 'a POST too')
  assert.deepEqual(propose.body.error.details.contracts, ['governance', 'ranking'])

  const emission = await app.get('/api/defi/emission')
  assert.equal(emission.status, 503)
  assert.match(emission.body.error.message, /\(emissionController\)/)

  // What needs no absent contract still answers.
  assert.equal((await app.get('/api/price')).status, 200)
  assert.equal((await app.get('/api/defi/activity')).status, 200)
  // The 503s are the deployment's known shape, named once at start-up: none is logged as a failure.
  assert.deepEqual(logLines.filter((l) => Number(l.level) >= 50), [])
})

test('MCP: the tool call is a tool error with the same code and message', async () => {
  const result = (await client.callTool({ name: 'get_defi', arguments: { view: 'emission' } })) as { isError?: boolean; content: Array<{ text: string }> }
  assert.equal(result.isError, true)
  const body = JSON.parse(result.content[0]!.text)
  assert.equal(body.error.code, 'NOT_DEPLOYED')
  assert.match(body.error.message, /\(emissionController\).*CONTRACT_ADDRESSES=emissionController=0x…/)
  const staking = (await client.callTool({ name: 'get_defi_staking', arguments: {} })) as { isError?: boolean; content: Array<{ text: string }> }
  assert.equal(staking.isError, true)
  assert.match(JSON.parse(staking.content[0]!.text).error.message, notDeployedMessage)
})

test('MCP tools/list marks what this deployment cannot serve, so an agent need not call to find out', async () => {
  const { tools } = await client.listTools()
  const byName = new Map(tools.map((tool) => [tool.name, tool]))
  // A tool of one operation whose contracts are all absent: marked whole.
  const staking = byName.get('get_defi_staking')!
  assert.match(staking.description!, /Not deployed on this network \(missing: moggerStaking, jesterStaking, pair\): every call answers NOT_DEPLOYED/)
  assert.deepEqual(staking._meta?.notDeployed, [{ operation: 'get_defi_staking', contracts: ['moggerStaking', 'jesterStaking', 'pair'] }])
  // A grouped tool: each variant that cannot answer is named by its discriminator.
  const defi = byName.get('get_defi')!
  const absent = defi._meta?.notDeployed as Array<Record<string, unknown>>
  assert.ok(absent.some((a) => a.view === 'emission' && a.operation === 'get_emission'), JSON.stringify(absent))
  assert.ok(!absent.some((a) => a.operation === 'get_activity'), 'the activity feed needs no absent contract')
  assert.match(defi.description!, /view .*emission.* answer NOT_DEPLOYED/)
  // What this deployment serves carries no mark.
  assert.equal(byName.get('get_price')!._meta?.notDeployed, undefined)
  assert.doesNotMatch(byName.get('get_price')!.description!, /Not deployed/)
})

test('chat: the answer says the contract is not deployed here, with the code', async () => {
  const reply = await app.post('/api/agent/chat', { message: 'what can I stake?' })
  assert.equal(reply.status, 200)
  assert.equal(reply.body.error?.code, 'NOT_DEPLOYED')
  assert.match(reply.body.answer, /needs a contract this network does not have/)
  assert.match(reply.body.answer, notDeployedMessage)
  for (const action of reply.body.actions ?? []) assert.notEqual(action.operationId, 'get_defi_staking', 'no suggestion of a call that would answer 503')
})

test('the agent index shows the absent contracts as null with a note; OpenAPI documents the 503', async () => {
  const index = await app.get('/api/agent')
  assert.equal(index.status, 200)
  for (const name of ['secondToken', 'moggerStaking', 'jesterStaking', 'pair', 'governance', 'vetoCouncil', 'ranking', 'emissionController', 'circuitBreaker']) {
    assert.equal(index.body.contracts[name], null, name)
  }
  assert.ok(index.body.contracts.token)
  assert.deepEqual(index.body.notDeployed.contracts, [...optionalContractNames])
  assert.ok(index.body.notDeployed.operations.includes('get_emission'))
  assert.match(index.body.notDeployed.note, /Not deployed on this network .*503 NOT_DEPLOYED.*CONTRACT_ADDRESSES/)

  const openapi = await app.get('/.well-known/openapi.json')
  assert.match(openapi.body.paths['/api/defi/staking'].get.responses['503'].description, /NOT_DEPLOYED/)
  assert.equal(openapi.body.paths['/api/price'].get.responses['503'], undefined)
})

test('the compiled service with NETWORK=megaeth and RPC_URL overridden: the shipped addresses, no embedded devnet, one start-up line', async () => {
  const dataDir = path.join(dir, 'process')
  const base = { ...process.env }
  for (const key of ['CONTRACTS_FILE', 'DATABASE_URL', 'REDIS_URL', 'START_BLOCK', 'PUBLIC_RPC_URL']) delete base[key]
  const child = spawn(process.execPath, [compiledMain()], {
    env: { ...base, NETWORK: 'megaeth', RPC_URL: app.devnet.url, ...keys, HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const lines: Array<Record<string, unknown>> = []
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()))
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`not ready in 60 s:\n${JSON.stringify(lines)}`)), 60_000)
      createInterface({ input: child.stdout! }).on('line', (line) => {
        try {
          const entry = JSON.parse(line) as Record<string, unknown>
          lines.push(entry)
          if (entry.readyMs !== undefined && typeof entry.url === 'string') {
            clearTimeout(timer)
            resolve(entry.url)
          }
        } catch {}
      })
      void exited.then(() => reject(new Error(`exited before ready:\n${JSON.stringify(lines)}`)))
    })
    assert.equal(lines.filter((l) => String(l.msg).startsWith('not deployed on this network')).length, 1)
    assert.ok(!existsSync(path.join(dataDir, 'devnet.json')), 'no embedded devnet was started')
    const index = (await (await fetch(`${url}/api/agent`)).json()) as { chain: { chainId: number; rpc: string }; contracts: Record<string, string | null> }
    assert.equal(index.chain.chainId, 4326)
    assert.equal(index.chain.rpc, 'https://mainnet.megaeth.com/rpc', 'the profile\'s public RPC is announced, never RPC_URL')
    assert.equal(lower(index.contracts.token ?? undefined), lower(MAINNET.token))
    assert.equal(lower(index.contracts.nft ?? undefined), lower(MAINNET.nft))
    assert.equal(index.contracts.pair, null)
    const staking = await fetch(`${url}/api/defi/staking`)
    assert.equal(staking.status, 503)
    assert.equal(((await staking.json()) as { error: { code: string } }).error.code, 'NOT_DEPLOYED')
    assert.deepEqual(lines.filter((l) => Number(l.level) >= 50), [], 'nothing failed')
  } finally {
    child.kill('SIGTERM')
    await exited
  }
})
