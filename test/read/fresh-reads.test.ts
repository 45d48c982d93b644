import { test, before, describe } from 'node:test'
import assert from 'node:assert/strict'
import { erc20Abi, formatUnits, parseEther } from 'viem'
import { useApp, type TestDevnet } from '../support/harness.ts'
import { createAgent, portraitBase64, type Agent } from '../support/agent.ts'
import { openStream } from '../support/sse.ts'
import { rpcClient } from '../support/rpc.ts'
import { quoterV2Abi } from '../../src/chain/abis/uniswap.ts'
import { POOL_FEE } from '../../src/chain/constants.ts'

/**
 * Issue 10, fresh reads: every read shows what the caller just did. The service runs with its
 * cache on (the default lifetimes), so a read that shows a change shows it because the change
 * renewed it, not because the cached answer had expired.
 */
let devnet: TestDevnet
const app = useApp({ env: { INDEXER_POLL_MS: '200' } })
let trader: Agent
let burner: Agent
let image: string

before(async () => {
  devnet = app.devnet
  trader = await createAgent(app.url, devnet.url, 6)
  burner = await createAgent(app.url, devnet.url, 5)
  image = await portraitBase64()
})

/** What the DEX quoter answers now, asked directly on chain. */
async function onChainQuote(amountIn: bigint): Promise<bigint> {
  const { result } = await trader.publicClient.simulateContract({
    address: trader.contracts.quoterV2!,
    abi: quoterV2Abi,
    functionName: 'quoteExactInputSingle',
    args: [{ tokenIn: trader.contracts.weth!, tokenOut: trader.contracts.token!, amountIn, fee: POOL_FEE, sqrtPriceLimitX96: 0n }],
  })
  return result[0]
}

async function swap(eth: string): Promise<bigint> {
  const hash = await trader.buyTokens(eth)
  return (await trader.publicClient.getTransactionReceipt({ hash })).blockNumber
}

describe('quotes and price after a swap', () => {
  test('one question however it is spelled: 0.5 ETH as "0.5" and in wei answer identically', async () => {
    const spellings = ['0.5', '500000000000000000', '0.50', '.5']
    const answers = await Promise.all(spellings.map((s) => fetch(`${app.url}/api/x402/quote?ethAmount=${s}`)))
    const bodies = await Promise.all(answers.map((r) => r.text()))
    for (const [i, body] of bodies.entries()) {
      assert.equal(answers[i]!.status, 200, body)
      assert.equal(body, bodies[0], `ethAmount=${spellings[i]} answers as ethAmount=0.5`)
      assert.equal(answers[i]!.headers.get('etag'), answers[0]!.headers.get('etag'))
    }
    assert.equal(JSON.parse(bodies[0]!).quote.ethInWei, '500000000000000000')
  })

  test('the next quote and price after a swap differ from before and equal a fresh on-chain quote', async () => {
    const quote = async () => (await app.get(`/api/x402/quote?ethAmount=0.5`)).body.quote.coinOutWei as string
    const price = async () => (await app.get(`/api/price`)).body.price.coinPerEth as number
    const [quoteBefore, priceBefore] = [await quote(), await price()]
    assert.equal(await quote(), quoteBefore, 'served from the cache while nothing changed')

    // A client that knows the swap's block asks for an answer at least that new: exact at once.
    const swapBlock = await swap('2')
    const headers = { 'x-min-block': swapBlock.toString() }
    const quoted = await app.get(`/api/x402/quote?ethAmount=0.5`, headers)
    assert.notEqual(quoted.body.quote.coinOutWei, quoteBefore, 'a swap moves the price')
    assert.equal(quoted.body.quote.coinOutWei, (await onChainQuote(parseEther('0.5'))).toString())
    assert.ok(BigInt(quoted.headers.get('x-block-number')!) >= swapBlock, 'the answer says it is as new as the swap')
    const priced = await app.get(`/api/price?minBlock=${swapBlock}`)
    assert.notEqual(priced.body.price.coinPerEth, priceBefore)
    assert.equal(priced.body.price.coinPerEth, Number(formatUnits(await onChainQuote(parseEther('1')), 18)))

    // Any client: once the indexer has seen the next swap, the cached quote and price are renewed.
    const [quoteMid, priceMid] = [await quote(), await price()]
    await swap('1')
    await app.ctx.indexer.sync()
    const [quoteAfter, priceAfter] = [await quote(), await price()]
    assert.notEqual(quoteAfter, quoteMid)
    assert.notEqual(priceAfter, priceMid)
    assert.equal(quoteAfter, (await onChainQuote(parseEther('0.5'))).toString())
    assert.equal(priceAfter, Number(formatUnits(await onChainQuote(parseEther('1')), 18)))
  })

  test('minBlock that is not a block number is refused', async () => {
    const { status, body } = await app.get(`/api/price?minBlock=latest`)
    assert.equal(status, 400)
    assert.equal(body.error.code, 'INVALID_INPUT')
  })

  test('minBlock beyond the chain head is not waited for: the answer says the block it is exact as of', async () => {
    const head = BigInt(await rpcClient(devnet.url)<string>('eth_blockNumber'))
    const started = Date.now()
    const { status, headers } = await app.get(`/api/stats?minBlock=${head + 1_000_000n}`)
    assert.equal(status, 200)
    assert.ok(BigInt(headers.get('x-block-number')!) <= head + 1n, 'the answer is as of the blocks that exist')
    // The documented wait for a reachable block is 5 s; a block that does not exist skips it.
    assert.ok(Date.now() - started < 5_000, `answered after ${Date.now() - started} ms`)
  })
})

describe('read-your-writes after a looksmaxx', () => {
  test('20 runs in a row: gallery, chadboard, stats and wallet show the new portrait on the first read', async () => {
    // Enough tokens for 20 burns, bought through the quote's swap.
    while ((await burner.coinBalance()) < 20n * 225_000n * 10n ** 18n) await burner.buyTokens('5')
    const requirements = (await app.get(`/api/x402/looksmaxx`)).body.accepts[0]
    const reads = async () => {
      const [gallery, chadboard, stats, wallet] = await Promise.all(
        ['/api/gallery', '/api/chadboard', '/api/stats', `/api/wallet?address=${burner.address}`].map((path) => app.get(`${path}`)),
      )
      const entry = chadboard!.body.entries.find((e: any) => e.address === burner.address)
      return { gallery: gallery!.body, entry, stats: stats!.body, wallet: wallet!.body }
    }
    for (let run = 1; run <= 20; run++) {
      const before = await reads() // cached now: the reads below must be renewed by the write
      const galleryEtag = (await fetch(`${app.url}/api/gallery`)).headers.get('etag')!
      const { burnTxHash, devTxHash } = await burner.burn()
      const response = await app.post(`/api/x402/looksmaxx`, {
        burnTxHash, devTxHash, burnerAddress: burner.address, image, paymentPayload: await burner.signPayment(requirements),
      })
      assert.equal(response.status, 200, JSON.stringify(response.body))
      assert.match(response.headers.get('x-block-number')!, /^\d+$/, 'a write says the block its effect is in')
      const { tokenId, ipfsCid } = response.body
      const now = await reads()
      assert.equal(now.gallery.burns[0].tokenId, tokenId, `run ${run}: the gallery lists the new portrait first`)
      assert.equal(now.gallery.burns[0].cid, ipfsCid)
      assert.equal(now.entry.totalBurns, (before.entry?.totalBurns ?? 0) + 1, `run ${run}: the chadboard counts it`)
      assert.equal(now.entry.images[0].txHash, burnTxHash)
      assert.equal(now.entry.latestTimestamp, now.gallery.burns[0].timestamp, 'one time for one portrait')
      assert.equal(now.stats.totalBurns, before.stats.totalBurns + 1, `run ${run}: stats count it`)
      assert.equal(now.stats.tokensBurned, before.stats.tokensBurned + 225_000, `run ${run}: the whole burn is counted`)
      assert.equal(now.wallet.balances.looksmaxxedNFTs, before.wallet.balances.looksmaxxedNFTs + 1, `run ${run}: the wallet holds it`)
      assert.equal(now.wallet.balances.coin, before.wallet.balances.coin - 225_000)
      const revalidated = await fetch(`${app.url}/api/gallery`, { headers: { 'if-none-match': galleryEtag } })
      assert.equal(revalidated.status, 200, 'a client revalidating its copy gets the new gallery')
    }
  })

  test('stats, gallery, chadboard and wallet agree on what was burned', async () => {
    const all = (await app.get(`/api/gallery?limit=50`)).body.burns
    const board = (await app.get(`/api/chadboard`)).body.entries
    const stats = (await app.get(`/api/stats`)).body
    const wallet = (await app.get(`/api/wallet?address=${burner.address}`)).body
    const galleryTotal = all.reduce((sum: number, b: any) => sum + b.burnAmount, 0)
    assert.equal(board.reduce((sum: number, e: any) => sum + e.totalBurned, 0), galleryTotal)
    assert.equal(board.reduce((sum: number, e: any) => sum + e.totalBurns, 0), stats.totalBurns)
    assert.equal(wallet.balances.looksmaxxedNFTs, board.find((e: any) => e.address === burner.address).totalBurns)
    // Every redeemed burn counts whole; the dead address also holds what was sent there before.
    const dead = await burner.balanceOf(burner.contracts.token!, '0x000000000000000000000000000000000000dEaD')
    const redeemedDeadHalves = 112_500 * stats.totalBurns
    assert.equal(stats.tokensBurned, Number(dead / 10n ** 18n) - redeemedDeadHalves + galleryTotal)
    assert.equal(stats.circulatingSupply, stats.totalSupply - stats.tokensBurned)
  })
})

describe('the event stream', () => {
  test('a plain burn transfer reaches stream clients as a burn event', async () => {
    const stream = await openStream(`${app.url}/api/events`)
    try {
      await stream.waitFor((e) => e.event === 'stats')
      const hash = await trader.send({
        to: trader.contracts.token!,
        data: (await import('viem')).encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: ['0x000000000000000000000000000000000000dEaD', 1_000n * 10n ** 18n] }),
      })
      const burn = await stream.waitFor((e) => e.event === 'burn' && e.data.txHash === hash.toLowerCase())
      assert.deepEqual({ ...burn.data, timestamp: undefined }, {
        txHash: hash.toLowerCase(), burner: trader.address, tokenId: null, cid: null, ipfsUrl: null, source: 'transfer', amount: 1000, timestamp: undefined,
      })
      assert.match(burn.id!, /^\d+$/)
    } finally {
      await stream.close()
    }
  })
})
