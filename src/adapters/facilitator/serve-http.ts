import http from 'node:http'
import { timingSafeEqual } from 'node:crypto'
import { z } from 'zod'
import type { Facilitator } from './port.ts'
import { parsePaymentPayload } from '../../x402/payload.ts'
import { paymentRequirementsSchema } from '../../x402/requirements.ts'
import { X402_NETWORK } from '../../chain/constants.ts'

const requestSchema = z.object({ x402Version: z.number().optional(), paymentPayload: z.unknown(), paymentRequirements: paymentRequirementsSchema })

/**
 * Serves a facilitator over the standard x402 HTTP API (`POST /verify`, `POST /settle`,
 * `GET /supported`), with a bearer key. Lets the project run its own facilitator as a
 * separate service, and tests the HTTP facilitator client against a real one.
 */
export async function serveFacilitatorHttp(facilitator: Facilitator, options: { host?: string; port?: number; apiKey?: string }) {
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
      return send(200, { kinds: [{ x402Version: 1, scheme: 'exact', network: X402_NETWORK }] })
    }
    if (req.method !== 'POST' || (req.url !== '/verify' && req.url !== '/settle')) return send(404, { error: 'not found' })
    let parsed
    try {
      const chunks: Buffer[] = []
      for await (const chunk of req) chunks.push(chunk as Buffer)
      parsed = requestSchema.parse(JSON.parse(Buffer.concat(chunks).toString('utf8')))
    } catch {
      return send(400, { error: 'invalid request' })
    }
    let payment
    try {
      payment = parsePaymentPayload(parsed.paymentPayload)
    } catch {
      return req.url === '/verify'
        ? send(200, { isValid: false, invalidReason: 'invalid_payload' })
        : send(200, { success: false, errorReason: 'invalid_payload', transaction: '', network: X402_NETWORK })
    }
    try {
      if (req.url === '/verify') {
        const result = await facilitator.verify(payment, parsed.paymentRequirements)
        return send(200, result)
      }
      const result = await facilitator.settle(payment, parsed.paymentRequirements)
      return send(200, result.success ? result : { ...result, transaction: '' })
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
