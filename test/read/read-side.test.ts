import { test, before, describe } from 'node:test'
import assert from 'node:assert/strict'
import { createWalletClient, http } from 'viem'
import { useApp, type TestDevnet } from '../support/harness.ts'
import { createAgent, portraitBase64, type Agent } from '../support/agent.ts'
import { createViemChain } from '../../src/chain/clients.ts'
import { reputationRegistryAbi } from '../../src/chain/abis/registries.ts'
import { testAccount } from '../support/accounts.ts'

let devnet: TestDevnet
const app = useApp({ env: { INDEXER_POLL_MS: '200' } })
let holder: Agent
let agent: Agent
const minted: Array<{ burner: string; tokenId: string; burnTxHash: string; ipfsCid: string }> = []

before(async () => {
  devnet = app.devnet
  const image = await portraitBase64()
  holder = await createAgent(app.url, devnet.url, 4) // the demo holder: name "demo", a profile
  agent = await createAgent(app.url, devnet.url, 5)
  await agent.buyTokens('1')
  for (const who of [holder, agent, holder]) {
    const { burnTxHash, devTxHash } = await who.burn()
    const { status, body } = await app.post(`/api/generate`, { burnTxHash, devTxHash, burnerAddress: who.address, image, ...(await who.signRedeem({ burnTxHash, devTxHash, image })) })
    assert.equal(status, 200, JSON.stringify(body))
    minted.push({ burner: who.address, tokenId: body.tokenId, burnTxHash, ipfsCid: body.ipfsCid })
  }
  // Agent 5 rates the service's ERC-8004 agent.
  const wallet = createWalletClient({ chain: createViemChain(devnet.url, 'https://x', devnet.info.contracts.multicall3), transport: http(devnet.url), account: testAccount(5).account })
  const hash = await wallet.writeContract({
    address: devnet.info.contracts.reputationRegistry, abi: reputationRegistryAbi, functionName: 'giveFeedback',
    args: [BigInt(devnet.info.agentId), 95n, 0, 'starred', '', '', '', `0x${'00'.repeat(32)}`],
  })
  await agent.publicClient.waitForTransactionReceipt({ hash })
  await app.ctx.indexer.sync()
  app.ctx.cache.clear()
})

describe('GET /api/gallery', () => {
  test('newest first, every field of the spec', async () => {
    const { status, body } = await app.get(`/api/gallery`)
    assert.equal(status, 200)
    assert.equal(body.limit, 20)
    assert.equal(body.offset, 0)
    assert.deepEqual(body.burns.map((b: any) => b.tokenId), minted.map((m) => m.tokenId).reverse())
    const newest = body.burns[0]
    const last = minted.at(-1)!
    assert.deepEqual(
      { txHash: newest.txHash, burner: newest.burner, prompt: newest.prompt, cid: newest.cid, ipfsUrl: newest.ipfsUrl, burnAmount: newest.burnAmount },
      { txHash: last.burnTxHash, burner: last.burner, prompt: 'looksmaxx', cid: last.ipfsCid, ipfsUrl: `${app.url}/ipfs/${last.ipfsCid}`, burnAmount: 225000 },
    )
    assert.ok(!Number.isNaN(Date.parse(newest.timestamp)))
  })

  test('pages with limit and offset', async () => {
    const { body } = await app.get(`/api/gallery?limit=1&offset=1`)
    assert.deepEqual(body.burns.map((b: any) => b.tokenId), [minted[1]!.tokenId])
    assert.equal((await app.get(`/api/gallery?limit=50&offset=100`)).body.burns.length, 0)
  })

  // The message says what is wrong: the bound for a number out of range, not "an integer".
  const expected: Record<string, RegExp> = { 'limit=0': /limit.*from 1 to 50/, 'limit=51': /limit.*from 1 to 50/, 'offset=-1': /offset.*at least 0/, 'limit=abc': /limit.*integer/, 'limit=2.5': /limit.*integer/ }
  for (const [query, message] of Object.entries(expected)) {
    test(`400 for ${query}`, async () => {
      const { status, body } = await app.get(`/api/gallery?${query}`)
      assert.equal(status, 400)
      assert.equal(body.error.code, 'INVALID_INPUT')
      assert.match(body.error.message, message)
    })
  }
})

describe('GET /api/chadboard', () => {
  test('burners ranked by portraits, with name, profile, images and reputation', async () => {
    const { status, body } = await app.get(`/api/chadboard`)
    assert.equal(status, 200)
    assert.equal(body.agentId, devnet.info.agentId)
    assert.deepEqual(body.entries.map((e: any) => [e.address, e.totalBurns, e.totalBurned]), [[holder.address, 2, 450000], [agent.address, 1, 225000]])
    const [top, second] = body.entries
    assert.equal(top.chainName, 'demo.mega')
    assert.equal(top.chainProfile.description, 'Demo holder of the devnet')
    assert.equal(top.images.length, 2)
    assert.equal(top.latestImage, `${app.url}/ipfs/${minted[2]!.ipfsCid}`)
    assert.equal(top.images[0].txHash, minted[2]!.burnTxHash)
    assert.deepEqual(top.reputation, { score: null, count: 0 })
    assert.equal(second.chainName, null)
    assert.deepEqual(second.reputation, { score: 95, count: 1 })
  })
})

describe('GET /api/agent/info', () => {
  test('registration, on-chain record and referral program', async () => {
    const { status, body } = await app.get(`/api/agent/info`)
    assert.equal(status, 200)
    assert.equal(body.status, 'registered')
    assert.deepEqual(body.registration.services.map((s: any) => s.name), ['SwapQuote', 'Looksmaxx', 'BurnToCreate', 'Chadboard', 'Stats', 'Gallery', 'AgentInfo'])
    assert.ok(body.registration.services.every((s: any) => s.version === '1.0.0'))
    assert.equal(body.registration.services.find((s: any) => s.name === 'BurnToCreate').endpoint, `${app.url}/api/generate`)
    assert.deepEqual(body.registration.registrations, [{ agentId: Number(devnet.info.agentId), agentRegistry: `eip155:4326:${devnet.info.contracts.identityRegistry}` }])
    assert.deepEqual(body.registration.supportedTrust, ['reputation'])
    assert.equal(body.onChain.agentId, devnet.info.agentId)
    assert.equal(body.onChain.owner, devnet.info.accounts.deployer)
    assert.match(body.onChain.agentURI, /agent-registration\.json$/)
    assert.equal(body.onChain.reputationClients, 1)
    assert.deepEqual(body.onChain.reputation, { score: 95, count: 1 })
    assert.equal(body.referralProgram.referralContract, devnet.info.contracts.referral)
  })
})

describe('GET /api/agent (agent index)', () => {
  test('version 2.0.0, every group, cached about 5 minutes with a working ETag', async () => {
    const response = await fetch(`${app.url}/api/agent`)
    const body = (await response.json()) as any
    assert.equal(body.version, '2.0.0')
    assert.match(response.headers.get('cache-control')!, /max-age=300/)
    for (const group of ['discovery', 'naturalLanguage', 'reads', 'txBuilders', 'agentEconomy']) assert.ok(group in body.endpoints)
    assert.equal(body.endpoints.reads.get_gallery, 'GET /api/gallery')
    assert.equal(body.mcp.url, `${app.url}/api/mcp`)
    assert.equal(body.intents.length, 36)
    assert.equal(body.contracts.token, devnet.info.contracts.token)
    const again = await fetch(`${app.url}/api/agent`, { headers: { 'if-none-match': response.headers.get('etag')! } })
    assert.equal(again.status, 304)
  })
})

describe('GET /api/identity/{addressOrName}', () => {
  test('by name and by address: the same profile, NFTs from the index, tier', async () => {
    const byName = await app.get(`/api/identity/demo.mega`)
    assert.equal(byName.status, 200)
    const byAddress = await app.get(`/api/identity/${holder.address.toLowerCase()}`)
    assert.deepEqual(byName.body, byAddress.body)
    assert.equal(byName.body.address, holder.address)
    assert.equal(byName.body.name, 'demo.mega')
    assert.equal(byName.body.burns.total, 2)
    assert.deepEqual(byName.body.nfts.tokenIds.sort(), [minted[0]!.tokenId, minted[2]!.tokenId].sort())
    assert.deepEqual(byName.body.tier, { level: 2, name: 'Mewer', nextAt: 3 })
    assert.equal(byName.body.nfts.count, 2)
  })

  test('counts the NFTs held as the wallet does, the seed\'s too (minted before the index starts)', async () => {
    const seedHolder = testAccount(12).account.address
    const [identity, wallet] = await Promise.all([app.get(`/api/identity/${seedHolder}`), app.get(`/api/wallet?address=${seedHolder}`)])
    assert.equal(identity.body.nfts.count, 25)
    assert.equal(identity.body.nfts.count, wallet.body.balances.looksmaxxedNFTs)
    assert.deepEqual(identity.body.nfts.tokenIds, [])
  })

  test('404 for an unknown name, 400 for malformed input', async () => {
    const unknown = await app.get(`/api/identity/nobody.mega`)
    assert.equal(unknown.status, 404)
    assert.equal(unknown.body.error.code, 'NOT_FOUND')
    const bad = await app.get(`/api/identity/${encodeURIComponent('not a name!')}`)
    assert.equal(bad.status, 400)
    assert.match(bad.body.error.code, /^INVALID_(INPUT|ADDRESS)$/)
  })
})

describe('portal and manifests', () => {
  test('token balances of a wallet, and the protocol directory', async () => {
    const { body } = await app.get(`/api/portal/tokens?address=${agent.address}`)
    const usdm = body.tokens.find((t: any) => t.symbol === 'USDm')
    assert.equal(BigInt(usdm.balanceRaw), await agent.usdmBalance())
    const badTokens = await app.get(`/api/portal/tokens?address=0x12`)
    assert.equal(badTokens.status, 400)
    assert.equal(badTokens.body.error.code, 'INVALID_ADDRESS')
    const protocols = await app.get(`/api/portal/protocols`)
    assert.equal(protocols.body.protocols.find((p: any) => p.id === 'kumbaya').contracts.quoterV2, devnet.info.contracts.quoterV2)
  })

  test('agents.txt, llms.txt and the agent card come from the registry', async () => {
    const llms = await fetch(`${app.url}/llms.txt`)
    assert.match(llms.headers.get('content-type')!, /text\/markdown/)
    const text = await llms.text()
    assert.match(text, /GET \/api\/gallery/)
    assert.match(await (await fetch(`${app.url}/agents.txt`)).text(), /MCP: .*\/api\/mcp/)
    const card = (await app.get(`/.well-known/agent.json`)).body
    assert.ok(card.skills.some((s: any) => s.id === 'submit_looksmaxx'))
    const registration = (await app.get(`/.well-known/agent-registration.json`)).body
    assert.equal(registration.registrations[0].agentId, Number(devnet.info.agentId))
  })
})

describe('read costs', () => {
  test('uncached: indexed reads cost no RPC call and chain reads one round trip (agent info two); cached: nothing', async (t) => {
    await app.ctx.indexer.stop()
    app.ctx.cache.clear()
    const cost = async (path: string) => {
      const before = app.ctx.chain.rpcRequestCount()
      assert.equal((await app.get(`${path}`)).status, 200, path)
      return app.ctx.chain.rpcRequestCount() - before
    }
    const indexed = ['/api/gallery', '/api/gallery?limit=5&offset=1', `/api/x402/looksmaxx/${minted[0]!.burnTxHash}`, '/api/agent']
    const chainReads = ['/api/chadboard', '/api/agent/info', '/api/stats', '/api/price', `/api/identity/${minted[0]!.burner}`, `/api/portal/tokens?address=${minted[0]!.burner}`]
    for (const path of indexed) assert.equal(await cost(path), 0, `${path} uncached`)
    // Agent info reads the agent's reputation with getSummary over its clients, which the
    // deployed ERC-8004 registry needs listed (it reverts on an empty list): getClients comes
    // first, in the one Multicall3 call, and getSummary second when the agent has any.
    const rounds: Record<string, number> = { '/api/agent/info': 2 }
    for (const path of chainReads) {
      const calls = await cost(path)
      t.diagnostic(`${path}: ${calls} RPC request(s) uncached`)
      assert.ok(calls <= (rounds[path] ?? 1), `${path} uncached costs ${calls} RPC requests`)
    }
    for (const path of [...indexed, ...chainReads]) assert.equal(await cost(path), 0, `${path} cached`)
  })
})
