import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import { useApp, type TestApp, type TestDevnet } from '../support/harness.ts'
import { createAgent, portraitBase64 } from '../support/agent.ts'
import { serveFacilitatorHttp } from '../../src/adapters/facilitator/serve-http.ts'
import { createBuiltinFacilitator } from '../../src/adapters/facilitator/builtin.ts'
import { createTxSender } from '../../src/chain/sender/tx-sender.ts'
import { testAccount } from '../support/accounts.ts'

let devnet: TestDevnet
const facilitatorHost = useApp()
let app: TestApp
let real: Awaited<ReturnType<typeof serveFacilitatorHttp>>
let flaky: http.Server
let settleCalls = 0

before(async () => {
  devnet = facilitatorHost.devnet
  const sender = createTxSender({ db: facilitatorHost.ctx.db, chain: facilitatorHost.ctx.chain, account: testAccount(2).account, log: facilitatorHost.ctx.log })
  real = await serveFacilitatorHttp(createBuiltinFacilitator({ chain: facilitatorHost.ctx.chain, sender }), {})
  // A facilitator that settles for real but then loses the answer (HTTP 504, as a timeout).
  flaky = http.createServer(async (req, res) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const upstream = await fetch(`${real.url}${req.url}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.concat(chunks) })
    const body = await upstream.text()
    if (req.url === '/settle') {
      settleCalls++
      return res.writeHead(504).end('gateway timeout')
    }
    res.writeHead(upstream.status, { 'content-type': 'application/json' }).end(body)
  })
  await new Promise<void>((resolve) => flaky.listen(0, '127.0.0.1', resolve))
  const port = (flaky.address() as { port: number }).port
  app = await facilitatorHost.another({ env: { FACILITATOR_URL: `http://127.0.0.1:${port}` } })
})
after(async () => {
  await new Promise((resolve) => flaky?.close(resolve))
  await real?.close()
})

test('a settlement whose answer is lost is found on chain, not settled again', async () => {
  const agent = await createAgent(app.url, devnet.url, 5)
  await agent.buyTokens('1')
  const { burnTxHash, devTxHash } = await agent.burn()
  const requirements = (await app.get(`/api/x402/looksmaxx`)).body.accepts[0]
  const usdm = await agent.usdmBalance()
  const response = await app.post(`/api/x402/looksmaxx`, {
    burnTxHash, devTxHash, burnerAddress: agent.address, image: await portraitBase64(), paymentPayload: await agent.signPayment(requirements),
  })
  assert.equal(response.status, 200, JSON.stringify(response.body))
  assert.equal(settleCalls, 1, 'settle was called once')
  assert.equal(usdm - (await agent.usdmBalance()), 10n ** 18n)
  const status = await app.get(`/api/x402/looksmaxx/${burnTxHash}`)
  const settled = status.body.steps.find((s: any) => s.step === 'settled')
  assert.match(settled.detail.transaction, /^0x[0-9a-f]{64}$/, 'the settlement transaction was read from the chain')
})
