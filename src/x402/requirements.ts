import { z } from 'zod'
import { CHAIN_ID, INFRA_FEE_WEI, X402_NETWORK } from '../chain/constants.ts'
import type { TransferMethod } from './payload.ts'

/** The EIP-712 domain of the USDm forwarder, as deployed on chain 4326. */
export const FORWARDER_DOMAIN = { name: 'USDm Forwarder', version: '1' } as const
/** USDm's own EIP-712 domain (EIP-2612): what a payer over Permit2 signs its permit with. */
export const USDM_DOMAIN = { name: 'MegaUSD', version: '1' } as const
export const PAYMENT_TIMEOUT_SECONDS = 300

/**
 * `extra` of an exact EVM requirement: the asset's EIP-712 domain, and for the Permit2 option
 * `assetTransferMethod: "permit2"`, which tells @x402/evm clients to sign a Permit2 witness
 * transfer instead of an EIP-3009 authorization.
 */
const extraSchema = z.object({ name: z.string(), version: z.string(), assetTransferMethod: z.literal('permit2').optional() })

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
  extra: extraSchema,
})
export type PaymentRequirements = z.infer<typeof paymentRequirementsSchema>

const DESCRIPTION = 'Infrastructure fee of 1 USDm for one looksmaxx portrait (the 225,000-token burn is separate).'

/** What both options of the looksmaxx fee share: exactly 1 USDm to the payee, within the timeout. */
function feeRequirements(resource: string, payTo: `0x${string}`, asset: `0x${string}`, extra: PaymentRequirements['extra']): PaymentRequirements {
  return {
    scheme: 'exact',
    network: X402_NETWORK,
    maxAmountRequired: INFRA_FEE_WEI.toString(),
    resource,
    description: DESCRIPTION,
    mimeType: 'application/json',
    payTo,
    maxTimeoutSeconds: PAYMENT_TIMEOUT_SECONDS,
    asset,
    extra,
  }
}

/** The forwarder option of the looksmaxx fee: exactly 1 USDm to the facilitator by EIP-3009. */
export function buildPaymentRequirements(args: { resource: string; payTo: `0x${string}`; forwarder: `0x${string}` }): PaymentRequirements {
  return feeRequirements(args.resource, args.payTo, args.forwarder, { ...FORWARDER_DOMAIN })
}

/** The Permit2 option of the same fee: exactly 1 USDm to the same payee, USDm itself as asset. */
export function buildPermit2Requirements(args: { resource: string; payTo: `0x${string}`; usdm: `0x${string}` }): PaymentRequirements {
  return feeRequirements(args.resource, args.payTo, args.usdm, { ...USDM_DOMAIN, assetTransferMethod: 'permit2' })
}

/**
 * Every way the fee can be paid, in the order of `accepts`: the forwarder first (what every
 * x402 v1 client can sign, and what `accepts[0]` has always been), then Permit2, the default
 * of stock v2 clients for MegaUSD.
 */
export function buildPaymentOffers(args: { resource: string; payTo: `0x${string}`; forwarder: `0x${string}`; usdm: `0x${string}` }): PaymentRequirements[] {
  return [buildPaymentRequirements(args), buildPermit2Requirements(args)]
}

export function transferMethodOf(requirements: Pick<PaymentRequirements, 'extra'>): TransferMethod {
  return requirements.extra?.assetTransferMethod === 'permit2' ? 'permit2' : 'eip3009'
}

/** The offer a payment of this transfer method pays. */
export function offerFor(offers: PaymentRequirements[], method: TransferMethod): PaymentRequirements {
  return offers.find((offer) => transferMethodOf(offer) === method) ?? offers[0]!
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
  extra: extraSchema,
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

/** The v1 form of a v2 requirement, with the resource the v2 payload names apart. */
export function fromRequirementsV2(requirements: PaymentRequirementsV2, resource: { url: string; description?: string; mimeType?: string }): PaymentRequirements {
  return {
    scheme: requirements.scheme,
    network: X402_NETWORK,
    maxAmountRequired: requirements.amount,
    resource: resource.url,
    description: resource.description ?? '',
    mimeType: resource.mimeType ?? 'application/json',
    payTo: requirements.payTo,
    maxTimeoutSeconds: requirements.maxTimeoutSeconds,
    asset: requirements.asset,
    extra: { ...requirements.extra },
  }
}
