import { z } from 'zod'
import type { Secret } from '../../config/secret.ts'
import { AppError } from '../../errors/app-error.ts'
import type { Facilitator, SettleResult } from './port.ts'
import type { VerifyPayment } from './verify-on-chain.ts'
import { isPermit2Payment, payerOf, type CompletePaymentPayload } from '../../x402/payload.ts'
import { toPaymentPayloadV2 } from '../../x402/payload-v2.ts'
import { toRequirementsV2, type PaymentRequirements } from '../../x402/requirements.ts'

const verifyResponse = z.object({ isValid: z.boolean(), invalidReason: z.string().nullish(), payer: z.string().nullish() })
const settleResponse = z.object({
  success: z.boolean(),
  errorReason: z.string().nullish(),
  transaction: z.string().nullish(),
  network: z.string().nullish(),
  payer: z.string().nullish(),
})
const supportedResponse = z.object({
  kinds: z.array(z.object({ x402Version: z.number(), scheme: z.string(), network: z.string(), extra: z.record(z.string(), z.unknown()).optional() }).passthrough()),
  extensions: z.array(z.string()).optional(),
  signers: z.record(z.string(), z.array(z.string())).optional(),
})
export type SupportedKinds = z.infer<typeof supportedResponse>

/**
 * Which HTTP API the facilitator speaks:
 * - `standard`: the x402 facilitator API, `POST {prefix}/verify`, `POST {prefix}/settle`,
 *   `GET {prefix}/supported`, with the x402Version of the payload at the top of each body;
 * - `settle-only`: only `POST {prefix}/settle` with `{ paymentPayload, paymentRequirements }`
 *   (the facilitator the reference uses on MegaETH, at `/v1/settle`); verification is then
 *   done here, on the chain.
 */
export type FacilitatorApi = 'standard' | 'settle-only'

export type HttpFacilitatorOptions = {
  url: string
  api?: FacilitatorApi
  /** Prepended to every path, e.g. `/v1`. */
  pathPrefix?: string
  apiKey?: Secret
  timeoutMs?: number
  fetch?: typeof fetch
  /** Verification when the facilitator has no /verify (settle-only); required for it. */
  verifyLocally?: VerifyPayment
}

/**
 * The request body of /verify and /settle. An EIP-3009 payment goes as x402 v1 (every
 * facilitator of chain 4326 takes it, network `megaeth`); a Permit2 payment as v2 (v1 has no
 * Permit2), its requirement under `accepted` and `paymentRequirements`, network eip155:4326.
 */
export function facilitatorRequestBody(payment: CompletePaymentPayload, requirements: PaymentRequirements, api: FacilitatorApi) {
  const body = isPermit2Payment(payment)
    ? { x402Version: 2, paymentPayload: toPaymentPayloadV2(payment, requirements), paymentRequirements: toRequirementsV2(requirements) }
    : {
        x402Version: 1,
        paymentPayload: { x402Version: 1, scheme: payment.scheme ?? requirements.scheme, network: payment.network ?? requirements.network, payload: payment.payload },
        paymentRequirements: requirements,
      }
  if (api === 'settle-only') return { paymentPayload: body.paymentPayload, paymentRequirements: body.paymentRequirements }
  return body
}

/**
 * An x402 facilitator over HTTP, standard or settle-only. Verdicts decide: a 200 with
 * `isValid`/`success`, or a 4xx whose JSON body carries one (as @x402/core's client reads
 * them, and as settle-only facilitators answer refusals). Anything else (timeout, network
 * error, 5xx, 408, 429, 401/403 without a verdict, malformed JSON) is an unknown outcome and
 * throws a retryable error: the pipeline then reads the chain, never settles again.
 */
export function createHttpFacilitator(options: HttpFacilitatorOptions): Facilitator & { supported(): Promise<SupportedKinds | undefined> } {
  const api = options.api ?? 'standard'
  const base = `${options.url.replace(/\/+$/, '')}${normalizePrefix(options.pathPrefix)}`
  const doFetch = options.fetch ?? fetch
  if (api === 'settle-only' && !options.verifyLocally) throw new Error('a settle-only facilitator needs verifyLocally')

  async function call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; json: unknown }> {
    let response: Response
    let text: string
    try {
      response = await doFetch(`${base}${path}`, {
        method,
        headers: {
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(options.apiKey ? { authorization: `Bearer ${options.apiKey.reveal()}` } : {}),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
      })
      // The deadline covers the body too: a facilitator that stalls mid-answer is a timeout.
      text = await response.text()
    } catch (cause) {
      throw new AppError('UPSTREAM_FAILED', `The payment facilitator did not answer ${path}.`, { cause, retryable: true })
    }
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch (cause) {
      throw new AppError('UPSTREAM_FAILED', `The payment facilitator answered ${path} with HTTP ${response.status} and no JSON.`, {
        retryable: true,
        cause: new Error(text.slice(0, 500), { cause }),
      })
    }
    return { status: response.status, json }
  }

  /** Whether an answer is a verdict: a 200, or a client error that is not about the transport or the key. */
  function isVerdictStatus(status: number): boolean {
    return (status >= 200 && status < 300) || (status >= 400 && status < 500 && ![401, 403, 404, 408, 429].includes(status))
  }

  function noOutcome(path: string, status: number, json: unknown): AppError {
    return new AppError('UPSTREAM_FAILED', `The payment facilitator answered ${path} with HTTP ${status}.`, {
      retryable: true,
      cause: new Error(JSON.stringify(json).slice(0, 500)),
    })
  }

  return {
    name: `http-${api}`,
    async verify(payment, requirements) {
      if (api === 'settle-only') return options.verifyLocally!(payment, requirements)
      const { status, json } = await call('POST', '/verify', facilitatorRequestBody(payment, requirements, api))
      const body = verifyResponse.safeParse(json)
      if (!isVerdictStatus(status) || !body.success) throw noOutcome('/verify', status, json)
      return body.data.isValid
        ? { isValid: true, payer: (body.data.payer ?? payerOf(payment)) as `0x${string}` }
        : { isValid: false, invalidReason: body.data.invalidReason ?? 'invalid_payment', payer: (body.data.payer ?? undefined) as `0x${string}` | undefined }
    },
    async settle(payment, requirements): Promise<SettleResult> {
      const { status, json } = await call('POST', '/settle', facilitatorRequestBody(payment, requirements, api))
      const parsed = settleResponse.safeParse(json)
      if (!isVerdictStatus(status) || !parsed.success) throw noOutcome('/settle', status, json)
      const body = parsed.data
      const network = requirements.network
      if (body.success && status < 300 && body.transaction && /^0x[0-9a-fA-F]{64}$/.test(body.transaction)) {
        return { success: true, transaction: body.transaction as `0x${string}`, network, payer: (body.payer ?? payerOf(payment)) as `0x${string}` }
      }
      if (body.success) {
        throw new AppError('UPSTREAM_FAILED', 'The facilitator reported success without a transaction hash.', { retryable: true })
      }
      return { success: false, errorReason: body.errorReason || `settlement_failed (HTTP ${status})`, network, payer: (body.payer ?? undefined) as `0x${string}` | undefined }
    },
    async supported() {
      if (api === 'settle-only') return undefined
      const { status, json } = await call('GET', '/supported')
      const body = supportedResponse.safeParse(json)
      if (status !== 200 || !body.success) throw noOutcome('/supported', status, json)
      return body.data
    },
  }
}

function normalizePrefix(prefix: string | undefined): string {
  if (!prefix || prefix === '/') return ''
  return `/${prefix.replace(/^\/+|\/+$/g, '')}`
}
