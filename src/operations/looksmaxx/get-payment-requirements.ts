import { z } from 'zod'
import { defineOperation } from '../define.ts'
import { paymentRequiredBody } from './schemas.ts'
import { paymentRequired } from './payment-required.ts'
import { paymentRequiredHeaders } from './x402-headers.ts'

export const getPaymentRequirements = defineOperation({
  id: 'get_looksmaxx_requirements',
  method: 'GET',
  path: '/api/x402/looksmaxx',
  summary: 'Payment and burn requirements of a looksmaxx (always HTTP 402)',
  description:
    'Answers 402 with X-Payment-Required: true and X-402-Version: 1. The body is the x402 v1 payment requirements, two ways to pay the same 1 USDm (accepts[0]: EIP-3009 through the USDm forwarder; accepts[1]: Permit2 through the x402ExactPermit2Proxy, extra.assetTransferMethod "permit2"; network megaeth) plus the burn requirements and steps 1-4; the PAYMENT-REQUIRED header carries the same offers as an x402 v2 PaymentRequired (network eip155:4326; extensions offer-receipt, bazaar, payment-identifier and eip2612GasSponsoring). Both carry the offers signed by the receipt key (extensions["offer-receipt"].info.offers, EIP-712).',
  tags: ['looksmaxx'],
  input: z.object({}),
  output: paymentRequiredBody,
  status: 402,
  responseHeaders: { 402: paymentRequiredHeaders() },
  errors: [],
  uses: ['chain', 'baseUrl', 'receipts'],
  async handler(ctx, _input, meta) {
    return paymentRequired(ctx, undefined, meta.transport === 'mcp' ? 'mcp' : 'http')
  },
})
