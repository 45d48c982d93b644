import { z } from 'zod'
import type { Secret } from '../../config/secret.ts'
import { AppError } from '../../errors/app-error.ts'
import type { Facilitator, SettleResult } from './port.ts'
import type { VerifyResult } from '../../x402/verify-payment.ts'

const verifyResponse = z.object({ isValid: z.boolean(), invalidReason: z.string().nullish(), payer: z.string().nullish() })
const settleResponse = z.object({
  success: z.boolean(),
  errorReason: z.string().nullish(),
  transaction: z.string().nullish(),
  network: z.string().nullish(),
  payer: z.string().nullish(),
})

/**
 * A standard x402 facilitator over HTTP (`POST /verify`, `POST /settle`, bearer key).
 * Verdicts come with 200; anything else (timeout, 4xx, 5xx, bad JSON) is an unknown outcome
 * and throws a retryable error, which the pipeline resolves by reading the chain.
 */
export function createHttpFacilitator(options: { url: string; apiKey?: Secret; timeoutMs?: number; fetch?: typeof fetch }): Facilitator {
  const base = options.url.replace(/\/$/, '')
  const doFetch = options.fetch ?? fetch
  async function call(path: string, body: unknown): Promise<unknown> {
    let response: Response
    try {
      response = await doFetch(`${base}${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(options.apiKey ? { authorization: `Bearer ${options.apiKey.reveal()}` } : {}),
        },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
      })
    } catch (cause) {
      throw new AppError('UPSTREAM_FAILED', `The payment facilitator did not answer ${path}.`, { cause, retryable: true })
    }
    if (response.status !== 200) {
      throw new AppError('UPSTREAM_FAILED', `The payment facilitator answered ${path} with HTTP ${response.status}.`, {
        retryable: response.status >= 500 || response.status === 429,
        cause: new Error(await response.text().catch(() => '')),
      })
    }
    try {
      return await response.json()
    } catch (cause) {
      throw new AppError('UPSTREAM_FAILED', `The payment facilitator sent malformed JSON for ${path}.`, { cause, retryable: true })
    }
  }
  return {
    name: 'http',
    async verify(payment, requirements): Promise<VerifyResult> {
      const body = verifyResponse.parse(await call('/verify', { x402Version: 1, paymentPayload: payment, paymentRequirements: requirements }))
      return body.isValid
        ? { isValid: true, payer: (body.payer ?? payment.payload.authorization.from) as `0x${string}` }
        : { isValid: false, invalidReason: body.invalidReason ?? 'invalid_payment', payer: (body.payer ?? undefined) as `0x${string}` | undefined }
    },
    async settle(payment, requirements): Promise<SettleResult> {
      const body = settleResponse.parse(await call('/settle', { x402Version: 1, paymentPayload: payment, paymentRequirements: requirements }))
      const network = body.network ?? requirements.network
      if (body.success && body.transaction && /^0x[0-9a-fA-F]{64}$/.test(body.transaction)) {
        return { success: true, transaction: body.transaction as `0x${string}`, network, payer: (body.payer ?? payment.payload.authorization.from) as `0x${string}` }
      }
      if (body.success) {
        throw new AppError('UPSTREAM_FAILED', 'The facilitator reported success without a transaction hash.', { retryable: true })
      }
      return { success: false, errorReason: body.errorReason ?? 'settlement_failed', network, payer: (body.payer ?? undefined) as `0x${string}` | undefined }
    },
  }
}
