import { createPublicClient, erc20Abi, getAddress, http, parseAbi, type Address } from 'viem'
import { operations } from '../../src/operations/index.ts'
import { BURN_ADDRESS } from '../../src/chain/constants.ts'
import { createViemChain } from '../../src/chain/clients.ts'
import { MAINNET } from '../../src/devnet/rehearsal/mainnet-addresses.ts'
import type { RehearsalInfo } from '../../src/devnet/rehearsal/start-rehearsal-devnet.ts'
import { createAgent, portraitBase64 } from './agent.ts'
import { getJson, postJson } from './fetch-json.ts'

const E18 = 10n ** 18n
const nftAbi = parseAbi(['function ownerOf(uint256) view returns (address)', 'function balanceOf(address) view returns (uint256)', 'function tokenURI(uint256) view returns (string)', 'function totalMinted() view returns (uint256)'])
const relayerAbi = parseAbi(['function nonces(address) view returns (uint256)'])
const quoterAbi = parseAbi(['function quoteExactInputSingle((address tokenIn,address tokenOut,uint256 amountIn,uint24 fee,uint160 sqrtPriceLimitX96)) returns (uint256,uint160,uint32,uint256)'])

/**
 * The two writes of the rehearsal, as an agent makes them against the service (which reads
 * the chain through the proxy) while the agent uses the chain directly: a paid looksmaxx
 * (two burn transfers, an x402 payment through the USDm forwarder at its mainnet address) and
 * a gasless burn through the relayer at its mainnet address. Each is checked on the chain.
 */
export async function runRehearsalFlows(serviceUrl: string, chainUrl: string) {
  const outcome: Array<{ flow: string; ok: boolean; detail: string; ms: number }> = []
  // The looksmaxx: burn, pay, portrait minted to the burner.
  {
    const started = performance.now()
    const agent = await createAgent(serviceUrl, chainUrl, 5)
    const requirements = (await getJson(`${serviceUrl}/api/x402/looksmaxx`)).body.accepts.find((a: any) => a.asset?.toLowerCase() === MAINNET.usdmForwarder.toLowerCase())
    if (!requirements) throw new Error('the 402 offers no payment through the USDm forwarder at its mainnet address')
    const burns = await agent.burn()
    const image = await portraitBase64()
    const response = await postJson(`${serviceUrl}/api/x402/looksmaxx`, { ...burns, burnerAddress: agent.address, image, paymentPayload: await agent.signPayment(requirements) })
    const owner = response.status === 200 ? await agent.ownerOf(BigInt(response.body.tokenId)) : undefined
    const ok = response.status === 200 && owner === agent.address
    outcome.push({ flow: 'looksmaxx (x402, forwarder)', ok, detail: ok ? `NFT #${response.body.tokenId} owned by the burner on chain` : `${response.status} ${JSON.stringify(response.body).slice(0, 300)}`, ms: performance.now() - started })
  }
  // The gasless burn: approve the relayer, sign the typed data, the service relays.
  {
    const started = performance.now()
    const agent = await createAgent(serviceUrl, chainUrl, 6)
    let prepared = (await getJson(`${serviceUrl}/api/gasless/burn?address=${agent.address}`)).body
    if (prepared.approval?.status === 'needed') {
      await agent.send({ to: prepared.approval.transaction.to, data: prepared.approval.transaction.data })
      prepared = (await getJson(`${serviceUrl}/api/gasless/burn?address=${agent.address}`)).body
    }
    const typed = prepared.signTypedData
    const message = { burner: typed.message.burner, nonce: BigInt(typed.message.nonce), deadline: BigInt(typed.message.deadline) }
    const signature = await agent.account.signTypedData({ domain: typed.domain, types: typed.types, primaryType: typed.primaryType, message })
    const deadBefore = await agent.balanceOf(MAINNET.token, BURN_ADDRESS)
    const response = await postJson(`${serviceUrl}/api/gasless/burn`, { burner: agent.address, deadline: Number(message.deadline), signature })
    const nonce = await agent.publicClient.readContract({ address: MAINNET.relayer, abi: relayerAbi, functionName: 'nonces', args: [agent.address] })
    const burned = (await agent.balanceOf(MAINNET.token, BURN_ADDRESS)) - deadBefore
    const ok = response.status === 200 && nonce === message.nonce + 1n && burned === 112_500n * E18
    outcome.push({ flow: 'gasless burn (relayer)', ok, detail: ok ? `relayed in ${response.body.txHash ?? response.body.relayTxHash ?? 'a transaction'}; relayer nonce ${nonce}, 112,500 more at the dead address` : `${response.status} ${JSON.stringify(response.body).slice(0, 300)}`, ms: performance.now() - started })
  }
  return outcome
}

type Check = { path: string; ok: boolean; detail: string }

/** Burn transactions (a leg to the dead address) plus portrait transfers on the chain: the events the service should have, one each. */
export async function chainEventCount(chainUrl: string, token: Address, nft: Address): Promise<number> {
  const client = createPublicClient({ chain: createViemChain(chainUrl, 'https://megaexplorer.xyz', MAINNET.multicall3), transport: http(chainUrl) })
  const transfer = parseAbi(['event Transfer(address indexed from, address indexed to, uint256 value)'])[0]
  const head = await client.getBlockNumber({ cacheTime: 0 })
  const burnTxs = new Set<string>()
  let nftTransfers = 0
  // In pages: a mainnet-size history's burns do not fit one answer.
  for (let from = 0n; from <= head; from += 20_000n) {
    const to = from + 19_999n < head ? from + 19_999n : head
    for (const log of await client.getLogs({ address: token, event: transfer, args: { to: BURN_ADDRESS }, fromBlock: from, toBlock: to })) burnTxs.add(log.transactionHash)
    nftTransfers += (await client.getLogs({ address: nft, event: parseAbi(['event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)'])[0], fromBlock: from, toBlock: to })).length
  }
  return burnTxs.size + nftTransfers
}

/**
 * Whether the service's event log holds exactly one event per burn transaction and per
 * portrait transfer of the chain (nothing lost, nothing counted twice), waiting up to `waitMs`
 * for the last events to be published after the cursor moved.
 */
export async function eventsMatchChain(serviceUrl: string, chainUrl: string, contracts: { token: Address; nft: Address }, waitMs = 10_000) {
  const chain = await chainEventCount(chainUrl, contracts.token, contracts.nft)
  const deadline = Date.now() + waitMs
  for (;;) {
    const indexed = Number(((await (await fetch(`${serviceUrl}/api/events/history?limit=1`)).json()) as { headEventId: string }).headEventId)
    if (indexed === chain || Date.now() > deadline) return { indexed, chain, ok: indexed === chain }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

/**
 * Every GET operation of the registry, asked of the service and, where its answer comes
 * from the chain, compared with the chain read directly (not through the proxy). Operations
 * that need a contract the mainnet profile lacks must answer 503 NOT_DEPLOYED. Static
 * documents must answer 200 and name the mainnet addresses.
 */
export async function checkRehearsalReads(serviceUrl: string, chainUrl: string, info: RehearsalInfo, sample: { wallet: Address; tokenId: bigint }): Promise<Check[]> {
  const chain = createViemChain(chainUrl, 'https://megaexplorer.xyz', MAINNET.multicall3)
  const client = createPublicClient({ chain, transport: http(chainUrl) })
  const { contracts } = info.deployment
  const balanceOf = (token: Address, owner: Address) => client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [owner] })
  const checks: Check[] = []
  const wallet = getAddress(sample.wallet)
  const near = (a: number, b: number) => Math.abs(a - b) <= Math.abs(b) * 1e-9
  const compare = async (path: string, test: (body: any, status: number) => Promise<string | true> | string | true) => {
    try {
      const response = await fetch(`${serviceUrl}${path}`)
      const text = await response.text()
      let body: any = text
      try {
        body = JSON.parse(text)
      } catch {}
      const verdict = await test(body, response.status)
      checks.push({ path, ok: verdict === true, detail: verdict === true ? 'matches the chain' : `${verdict} (${response.status} ${text.slice(0, 200)})`.replace(/\s+/g, ' ') })
    } catch (error) {
      checks.push({ path, ok: false, detail: (error as Error).message.replace(/\s+/g, ' ') })
    }
  }
  const chainSupply = await client.readContract({ address: contracts.token, abi: erc20Abi, functionName: 'totalSupply' })
  const chainDead = await balanceOf(contracts.token, BURN_ADDRESS)
  const totalMinted = await client.readContract({ address: contracts.nft, abi: nftAbi, functionName: 'totalMinted' })

  // tokensBurned: the dead address's balance plus, per burn redeemed for a portrait (totalBurns), its fund half (get-stats.ts).
  await compare('/api/stats', (b) => {
    const burned = chainDead / E18 + BigInt(b.totalBurns) * 112_500n
    return b.totalSupply === Number(chainSupply / E18) && b.tokensBurned === Number(burned) && b.circulatingSupply === Number(chainSupply / E18 - burned) ? true : `supply ${chainSupply / E18}, ${chainDead / E18} at the dead address on chain`
  })
  await compare('/api/price', async (b) => {
    // The price is the quoter's answer for 1 ETH.
    const [amountOut] = (await client.simulateContract({ address: contracts.quoterV2, abi: quoterAbi, functionName: 'quoteExactInputSingle', args: [{ tokenIn: contracts.weth, tokenOut: contracts.token, amountIn: E18, fee: 10_000, sqrtPriceLimitX96: 0n }] })).result
    const quoted = Number(amountOut) / 1e18
    return b.pool?.address === contracts.pool && near(b.price.coinPerEth, quoted) ? true : `quoter gives ${quoted} per ETH`
  })
  await compare('/api/x402/quote?ethAmount=0.1', async (b) => {
    const [amountOut] = (await client.simulateContract({ address: contracts.quoterV2, abi: quoterAbi, functionName: 'quoteExactInputSingle', args: [{ tokenIn: contracts.weth, tokenOut: contracts.token, amountIn: E18 / 10n, fee: 10_000, sqrtPriceLimitX96: 0n }] })).result
    return BigInt(b.quote.coinOutWei) === amountOut && b.swap.router === MAINNET.swapRouter ? true : `quoter gives ${amountOut}`
  })
  await compare(`/api/wallet?address=${wallet}`, async (b) => {
    const [eth, coin, nfts] = await Promise.all([client.getBalance({ address: wallet }), balanceOf(contracts.token, wallet), client.readContract({ address: contracts.nft, abi: nftAbi, functionName: 'balanceOf', args: [wallet] })])
    return BigInt(b.balances.ethWei) === eth && BigInt(b.balances.coinWei) === coin && b.balances.looksmaxxedNFTs === Number(nfts) ? true : `chain: ${eth} wei, ${coin} MEGACHAD wei, ${nfts} NFTs`
  })
  await compare(`/api/portal/tokens?address=${wallet}`, async (b) => {
    const coin = await balanceOf(contracts.token, wallet)
    const listed = JSON.stringify(b)
    return listed.includes(coin.toString()) || listed.includes(String(Number(coin / E18))) ? true : `chain: ${coin} MEGACHAD wei`
  })
  await compare(`/api/metadata/${sample.tokenId}`, async (b) => {
    const [owner, uri] = await Promise.all([client.readContract({ address: contracts.nft, abi: nftAbi, functionName: 'ownerOf', args: [sample.tokenId] }), client.readContract({ address: contracts.nft, abi: nftAbi, functionName: 'tokenURI', args: [sample.tokenId] })])
    const attributes = Object.fromEntries((b.attributes ?? []).map((a: any) => [a.trait_type, a.value]))
    return attributes.Owner === owner && (attributes['Token URI'] === undefined || attributes['Token URI'] === uri || JSON.stringify(b).includes(uri.replace(/^ipfs:\/\//, ''))) ? true : `chain: owner ${owner}, URI ${uri}`
  })
  await compare(`/api/identity/${wallet}`, async (b) => {
    const nfts = await client.readContract({ address: contracts.nft, abi: nftAbi, functionName: 'balanceOf', args: [wallet] })
    const owners = await Promise.all((b.nfts?.tokenIds ?? []).map((id: string) => client.readContract({ address: contracts.nft, abi: nftAbi, functionName: 'ownerOf', args: [BigInt(id)] })))
    return b.nfts.count === Number(nfts) && owners.every((o) => o.toLowerCase() === wallet.toLowerCase()) ? true : `chain: ${nfts} NFTs`
  })
  await compare('/api/gallery?limit=50', async (b) => {
    const owners = await Promise.all((b.burns ?? []).filter((e: any) => e.tokenId != null).map(async (e: any) => [e, await client.readContract({ address: contracts.nft, abi: nftAbi, functionName: 'ownerOf', args: [BigInt(e.tokenId)] })] as const))
    return owners.length > 0 && owners.every(([e, owner]) => JSON.stringify(e).toLowerCase().includes(owner.toLowerCase())) ? true : `${owners.length} portraits, owners on chain ${owners.map(([, o]) => o).join(', ')}`
  })
  await compare('/api/chadboard', async (b) => {
    const rows = await Promise.all((b.entries ?? []).slice(0, 20).map(async (e: any) => [e, await client.readContract({ address: contracts.nft, abi: nftAbi, functionName: 'balanceOf', args: [e.address ?? e.wallet] })] as const))
    return rows.length > 0 && rows.every(([, n]) => n > 0n) ? true : `${rows.length} entries; NFT balances on chain ${rows.map(([, n]) => n).join(', ')}`
  })
  // Exact before any flow (eventsMatchChain); after them the looksmaxx adds events of its own.
  // The flows' last events are published when the indexer's next pass reads their blocks: waited for (10 s at most).
  const chainEvents = await chainEventCount(chainUrl, contracts.token, contracts.nft)
  for (let i = 0; i < 40; i++) {
    const head = Number(((await (await fetch(`${serviceUrl}/api/events/history?limit=1`)).json()) as { headEventId: string }).headEventId)
    if (head >= chainEvents) break
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  await compare('/api/events/history?limit=1', (b) => (Number(b.headEventId) >= chainEvents ? true : `head event ${b.headEventId}, the chain has ${chainEvents} burn transactions and mints`))
  await compare('/api/agent/info', async (b) => {
    const owner = await client.readContract({ address: contracts.identityRegistry, abi: nftAbi, functionName: 'ownerOf', args: [BigInt(info.deployment.agentId)] })
    return String(b.onChain?.agentId) === info.deployment.agentId && b.onChain?.owner === owner ? true : `chain: agent ${info.deployment.agentId} owned by ${owner}`
  })
  await compare(`/api/agent/referrals?address=${wallet}`, (_b, status) => (status === 200 ? true : 'not 200'))
  await compare(`/api/gasless/burn?address=${wallet}`, async (b) => {
    const nonce = await client.readContract({ address: contracts.relayer, abi: relayerAbi, functionName: 'nonces', args: [wallet] })
    return b.relayerContract === MAINNET.relayer && (b.signTypedData == null || BigInt(b.signTypedData.message.nonce) === nonce) ? true : `chain nonce ${nonce}`
  })
  await compare('/api/x402/looksmaxx', (b, status) => (status === 402 && JSON.stringify(b).includes(MAINNET.usdmForwarder) && JSON.stringify(b).includes(info.deployment.facilitator) ? true : 'no forwarder or payTo of mainnet'))
  await compare('/.well-known/service-protocol.json', (b) => {
    const listed = Object.fromEntries(Object.entries(b.contracts ?? {}).map(([k, v]: [string, any]) => [k, v?.address ?? v]))
    const wrong = Object.entries(MAINNET).filter(([k, v]) => k in listed && k !== 'pool' && String(listed[k]).toLowerCase() !== v.toLowerCase())
    return wrong.length === 0 ? true : `not the mainnet addresses: ${wrong.map(([k]) => k).join(', ')}`
  })

  // The rest of the registry's GETs: answered, and those needing an absent contract say so.
  const done = new Set(checks.map((c) => c.path.split('?')[0]!.replace(/\/[^/]*$/, (tail) => tail)))
  const fill: Record<string, string> = { '{burnTxHash}': '0x' + '0'.repeat(64), '{tokenId}': String(sample.tokenId), '{cid}': 'bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku', '{addressOrName}': wallet, '{id}': '1' }
  for (const op of operations as unknown as Array<{ method: string; path: string; id: string }>) {
    if (op.method !== 'GET' || op.path === '/api/events') continue
    const path = op.path.replace(/\{\w+\}/g, (p) => fill[p] ?? p)
    if ([...done].some((d) => d === path || d === op.path)) continue
    if (checks.some((c) => c.path.split('?')[0] === path)) continue
    await compare(path, (b, status) => {
      // The DeFi contracts have no mainnet address: a read that needs one answers 503 NOT_DEPLOYED (a 400 for a missing parameter comes first).
      if (op.path.startsWith('/api/defi/') && status >= 500) return status === 503 && b?.error?.code === 'NOT_DEPLOYED' ? true : 'expected 503 NOT_DEPLOYED (no mainnet address)'
      // Statuses of an unknown burn hash, and reads that need a parameter the rehearsal does not give, are answers too.
      return status < 500 ? true : `answered ${status}`
    })
  }
  return checks
}
