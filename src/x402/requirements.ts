import { z } from 'zod'
import { CHAIN_ID, INFRA_FEE_WEI, X402_NETWORK } from '../chain/constants.ts'

/** The EIP-712 domain of the USDm forwarder, as deployed on chain 4326. */
export const FORWARDER_DOMAIN = { name: 'USDm Forwarder', version: '1' } as const
export const PAYMENT_TIMEOUT_SECONDS = 300

export const paymentRequirementsSchema = z.object({
  scheme: z.literal('exact'),
  network: z.literal(X402_NETWORK),
  maxAmountRequired: z.string(),
  resource: z.string(),
  description: z.string(),
  mimeType: z.string(),
  payTo: z.string(),
  maxTimeoutSeconds: z.number().int(),
  asset: z.string(),
  extra: z.object({ name: z.string(), version: z.string() }),
})
export type PaymentRequirements = z.infer<typeof paymentRequirementsSchema>

/** The one payment option of the looksmaxx fee: exactly 1 USDm to the facilitator. */
export function buildPaymentRequirements(args: {
  resource: string
  payTo: `0x${string}`
  forwarder: `0x${string}`
}): PaymentRequirements {
  return {
    scheme: 'exact',
    network: X402_NETWORK,
    maxAmountRequired: INFRA_FEE_WEI.toString(),
    resource: args.resource,
    description: 'Infrastructure fee of 1 USDm for one looksmaxx portrait (the 225,000-token burn is separate).',
    mimeType: 'application/json',
    payTo: args.payTo,
    maxTimeoutSeconds: PAYMENT_TIMEOUT_SECONDS,
    asset: args.forwarder,
    extra: { ...FORWARDER_DOMAIN },
  }
}

export function forwarderDomain(forwarder: `0x${string}`) {
  return { ...FORWARDER_DOMAIN, chainId: CHAIN_ID, verifyingContract: forwarder }
}

/** The v2 (CAIP-2) name of chain 4326; v1 calls it `megaeth`. */
export const X402_NETWORK_V2 = `eip155:${CHAIN_ID}` as const

/** One x402 v2 `accepts[]` entry: the v1 requirement with `amount` and a CAIP-2 network. */
export const paymentRequirementsV2Schema = z.object({
  scheme: z.literal('exact'),
  network: z.literal(X402_NETWORK_V2),
  amount: z.string(),
  asset: z.string(),
  payTo: z.string(),
  maxTimeoutSeconds: z.number().int(),
  extra: z.object({ name: z.string(), version: z.string() }),
})
export type PaymentRequirementsV2 = z.infer<typeof paymentRequirementsV2Schema>

/** The same payment option as the v1 requirement, as x402 v2 writes it. */
export function toRequirementsV2(requirements: PaymentRequirements): PaymentRequirementsV2 {
  return {
    scheme: requirements.scheme,
    network: X402_NETWORK_V2,
    amount: requirements.maxAmountRequired,
    asset: requirements.asset,
    payTo: requirements.payTo,
    maxTimeoutSeconds: requirements.maxTimeoutSeconds,
    extra: { ...requirements.extra },
  }
}
