import http from 'node:http'
import { timingSafeEqual } from 'node:crypto'
import { z } from 'zod'
import type { Facilitator } from './port.ts'
import { parsePaymentPayload, EIP2612_GAS_SPONSORING, type CompletePaymentPayload } from '../../x402/payload.ts'
import { parseAnyPaymentPayload } from '../../x402/payload-v2.ts'
import { fromRequirementsV2, paymentRequirementsSchema, paymentRequirementsV2Schema, X402_NETWORK_V2, type PaymentRequirements } from '../../x402/requirements.ts'
import { X402_NETWORK } from '../../chain/constants.ts'

const requestSchema = z.object({ x402Version: z.number().optional(), paymentPayload: z.unknown(), paymentRequirements: z.unknown() })

/**
 * Serves a facilitator over the standard x402 HTTP API (`POST /verify`, `POST /settle`,
 * `GET /supported`), v1 and v2 bodies, with a bearer key. Lets the project run its own
 * facilitator as a separate service. Verdicts come with 200; a malformed request is 400, a
 * failure without an outcome 500, a wrong key 401, each with `{ error }`.
 */
export async function serveFacilitatorHttp(facilitator: Facilitator, options: { host?: string; port?: number; apiKey?: string; signers?: string[] }) {
  const authorized = (header: string | undefined) => {
    if (!options.apiKey) return true
    const expected = Buffer.from(`Bearer ${options.apiKey}`)
    const given = Buffer.from(header ?? '')
    return given.length === expected.length && timingSafeEqual(given, expected)
  }
  const server = http.createServer(async (req, res) => {
    const send = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
    if (!authorized(req.headers.authorization)) return send(401, { error: 'unauthorized' })
    if (req.method === 'GET' && req.url === '/supported') {
      return send(200, {
        kinds: [
          { x402Version: 1, scheme: 'exact', network: X402_NETWORK },
          { x402Version: 2, scheme: 'exact', network: X402_NETWORK_V2 },
        ],
        extensions: [EIP2612_GAS_SPONSORING],
        signers: { 'eip155:*': options.signers ?? [] },
      })
    }
    if (req.method !== 'POST' || (req.url !== '/verify' && req.url !== '/settle')) return send(404, { error: 'not found' })
    let request: { version: number; payment: unknown; requirements: PaymentRequirements }
    try {
      const chunks: Buffer[] = []
      for await (const chunk of req) chunks.push(chunk as Buffer)
      request = readRequest(JSON.parse(Buffer.concat(chunks).toString('utf8')))
    } catch {
      return send(400, { error: 'invalid request' })
    }
    const network = request.version === 2 ? X402_NETWORK_V2 : X402_NETWORK
    let payment: CompletePaymentPayload
    try {
      payment = request.version === 2 ? parseAnyPaymentPayload(request.payment).payment : parsePaymentPayload(request.payment)
    } catch {
      return req.url === '/verify'
        ? send(200, { isValid: false, invalidReason: 'invalid_payload' })
        : send(200, { success: false, errorReason: 'invalid_payload', transaction: '', network })
    }
    try {
      if (req.url === '/verify') return send(200, await facilitator.verify(payment, request.requirements))
      const result = await facilitator.settle(payment, request.requirements)
      return send(200, result.success ? { ...result, network } : { ...result, transaction: '', network })
    } catch {
      return send(500, { error: 'facilitator error' })
    }
  })
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** The body of /verify or /settle, its requirements in the v1 form the facilitator port takes. */
function readRequest(json: unknown): { version: number; payment: unknown; requirements: PaymentRequirements } {
  const body = requestSchema.parse(json)
  const version = body.x402Version ?? (body.paymentPayload as { x402Version?: number } | null)?.x402Version ?? 1
  if (version !== 2) return { version: 1, payment: body.paymentPayload, requirements: paymentRequirementsSchema.parse(body.paymentRequirements) }
  const resource = z.object({ url: z.string(), description: z.string().optional(), mimeType: z.string().optional() }).parse((body.paymentPayload as { resource?: unknown }).resource)
  return { version: 2, payment: body.paymentPayload, requirements: fromRequirementsV2(paymentRequirementsV2Schema.parse(body.paymentRequirements), resource) }
}
