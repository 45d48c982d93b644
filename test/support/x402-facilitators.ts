import http from 'node:http'
import { createWalletClient, http as viemHttp, publicActions, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { x402Facilitator } from '@x402/core/facilitator'
import { toFacilitatorEvmSigner } from '@x402/evm'
import { ExactEvmScheme } from '@x402/evm/exact/facilitator'
import { ExactEvmSchemeV1 } from '@x402/evm/exact/v1/facilitator'
import { createViemChain } from '../../src/chain/clients.ts'

/**
 * What the next calls to a fake facilitator do instead of answering normally, to test the
 * outcomes a real one can give: `refuse-5xx` fails before doing anything; `settle-then-5xx`
 * and `settle-then-hang` settle for real, then lose the answer (502) or never send it.
 */
export type Fault = 'refuse-5xx' | 'settle-then-5xx' | 'settle-then-hang' | 'hang'

export type FakeFacilitator = {
  url: string
  /** Every request: method, path, Authorization header, parsed JSON body. */
  requests: { method: string; path: string; authorization?: string; body?: any; status?: number; answer?: any }[]
  /** Faults for the next /settle (or /verify) calls, consumed in order. */
  faults: { settle: Fault[]; verify: Fault[] }
  close(): Promise<void>
}

/**
 * The official x402 facilitator (@x402/core's x402Facilitator with @x402/evm's exact scheme,
 * v1 and v2, EIP-3009 and Permit2) settling on the devnet with a devnet key, served over HTTP
 * in one of the two shapes the service speaks:
 * - `standard`: the x402 facilitator API (specs/x402-specification-v2.md §7): POST /verify and
 *   POST /settle answer 200 with the verdict ({isValid, invalidReason?, payer} /
 *   {success, errorReason?, payer, transaction, network}), GET /supported the kinds; a body
 *   that is not JSON or lacks the fields is 400 {error}, an exception 500 {error}, a wrong
 *   key 401 {error};
 * - `settle-only`: the facilitator the reference uses on MegaETH (docs/contributors/contracts.md, The facilitator the reference uses): only
 *   POST {prefix}/settle with `Authorization: Bearer <key>` and {paymentPayload,
 *   paymentRequirements}; success is 200 {success: true, transaction, network, payer}, a
 *   refusal 400 {success: false, errorReason, transaction: "", network, payer}, a wrong or
 *   missing key 401 {error}, anything else 404 {error}.
 */
export async function startX402Facilitator(options: { rpcUrl: string; privateKey: Hex; api: 'standard' | 'settle-only'; prefix?: string; apiKey?: string }): Promise<FakeFacilitator> {
  const chain = createViemChain(options.rpcUrl, 'https://megaexplorer.xyz', '0xcA11bde05977b3631167028862bE2a173976CA11')
  const client = createWalletClient({ chain, transport: viemHttp(options.rpcUrl), account: privateKeyToAccount(options.privateKey) }).extend(publicActions)
  const signer = toFacilitatorEvmSigner({ ...client, address: client.account.address } as never)
  const facilitator = new x402Facilitator().register('eip155:4326', new ExactEvmScheme(signer)).registerV1('megaeth' as never, new ExactEvmSchemeV1(signer))
  const prefix = options.prefix ?? ''
  const requests: FakeFacilitator['requests'] = []
  const faults: FakeFacilitator['faults'] = { settle: [], verify: [] }
  const hanging = new Set<http.ServerResponse>()

  const server = http.createServer(async (req, res) => {
    const record: FakeFacilitator['requests'][number] = { method: req.method!, path: req.url ?? '' }
    const send = (status: number, answer: unknown) => {
      Object.assign(record, { status, answer })
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(answer))
    }
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const text = Buffer.concat(chunks).toString('utf8')
    let body: any
    try {
      body = text ? JSON.parse(text) : undefined
    } catch {
      body = undefined
    }
    const path = req.url ?? ''
    requests.push(Object.assign(record, { authorization: req.headers.authorization, body }))
    if (options.apiKey && req.headers.authorization !== `Bearer ${options.apiKey}`) return send(401, { error: 'Unauthorized' })

    const operation = req.method === 'POST' && path === `${prefix}/settle` ? 'settle' : req.method === 'POST' && path === `${prefix}/verify` && options.api === 'standard' ? 'verify' : undefined
    if (req.method === 'GET' && path === `${prefix}/supported` && options.api === 'standard') return send(200, facilitator.getSupported())
    if (!operation) return send(404, { error: 'Not found' })
    if (!body || typeof body !== 'object' || !body.paymentPayload || !body.paymentRequirements) {
      return send(400, { error: 'Invalid request: paymentPayload and paymentRequirements are required' })
    }
    const fault = faults[operation].shift()
    const hang = () => hanging.add(res)
    if (fault === 'hang') return hang()
    if (fault === 'refuse-5xx') return send(503, { error: 'Service unavailable' })
    try {
      if (operation === 'verify') return send(200, await facilitator.verify(body.paymentPayload, body.paymentRequirements))
      const result = await facilitator.settle(body.paymentPayload, body.paymentRequirements)
      if (fault === 'settle-then-5xx') return send(502, { error: 'Bad gateway' })
      if (fault === 'settle-then-hang') return hang()
      if (options.api === 'settle-only' && !result.success) return send(400, result)
      return send(200, result)
    } catch (error) {
      return send(500, { error: (error as Error).message })
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    requests,
    faults,
    async close() {
      for (const res of hanging) res.destroy()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
