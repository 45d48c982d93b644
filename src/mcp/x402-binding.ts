import { decodeX402Header, encodeX402Header, paymentRequiredV2Schema, type PaymentRequiredV2 } from '../x402/payment-required-v2.ts'
import { jsonSchemaOf, type JsonSchema } from '../operations/json-schema.ts'
import type { AnyOperation } from '../operations/define.ts'

/**
 * x402 over MCP, as coinbase/x402 specs/transports-v2/mcp.md (x402 v2) states it, translated to
 * and from the HTTP binding the operations speak: `_meta["x402/payment"]` is what HTTP carries
 * in PAYMENT-SIGNATURE, `_meta["x402/payment-response"]` what it carries in PAYMENT-RESPONSE
 * (with the offer-receipt receipt in its extensions), and a 402 becomes an `isError` result whose
 * structuredContent is the PaymentRequired and content[0].text its JSON. The operation writes
 * the MCP form of the PaymentRequired itself (told by meta.transport): resource.url is the MCP
 * endpoint, the bazaar declaration names the tool, the offers are signed for that URL, and a
 * payment that does not verify (malformed included) is answered with it and the reason.
 */
export const PAYMENT_META = 'x402/payment'
export const PAYMENT_RESPONSE_META = 'x402/payment-response'

/** Whether a tool takes an x402 payment: its operation may answer 402 besides its main answer. */
export function isPaidOperation(op: AnyOperation): boolean {
  return (op.status ?? 200) !== 402 && (op.extraResponses ?? []).some((response) => response.status === 402)
}

/**
 * The output schema of a paid tool: its result, or the PaymentRequired of an unpaid call
 * (clients validate structured content against it, error results included).
 */
export function paidOutputSchema(output: JsonSchema): JsonSchema {
  return { type: 'object', anyOf: [output, jsonSchemaOf(paymentRequiredV2Schema, 'output')] }
}

/** The request headers that carry a tool call's payment, if it has one. */
export function paymentHeadersOf(meta: Record<string, unknown> | undefined): Record<string, string> {
  const payment = meta?.[PAYMENT_META]
  return payment === undefined ? {} : { 'payment-signature': encodeX402Header(payment) }
}

/** The settlement of a paid answer, as `_meta` of the tool result. */
export function paymentResponseMetaOf(headers: Record<string, string> | undefined): Record<string, unknown> {
  const header = headers?.['PAYMENT-RESPONSE'] ?? headers?.['X-PAYMENT-RESPONSE']
  return header ? { [PAYMENT_RESPONSE_META]: decodeX402Header(header) } : {}
}

/** The PaymentRequired of a 402 answer (the operation wrote it in PAYMENT-REQUIRED). */
export function paymentRequiredOf(status: number, headers: Record<string, string> | undefined): PaymentRequiredV2 | undefined {
  const header = headers?.['PAYMENT-REQUIRED']
  return status === 402 && header ? (decodeX402Header(header) as PaymentRequiredV2) : undefined
}
