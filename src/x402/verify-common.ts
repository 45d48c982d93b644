import type { PaymentRequirements } from './requirements.ts'

export type VerifyResult = { isValid: true; payer: `0x${string}` } | { isValid: false; invalidReason: string; payer?: `0x${string}` }

/**
 * What the chain says about the payer, read by the caller (one multicall): whether the
 * payment's nonce is spent (the forwarder's authorizationState, or Permit2's nonce bitmap),
 * the payer's USDm balance and its allowance to the contract that pulls the fee (the
 * forwarder, or Permit2).
 */
export type PayerState = { nonceUsed: boolean; balance: bigint; allowance: bigint }

/** Validity margin: a payment that expires in the next seconds could not settle in time. */
export const MIN_REMAINING_SECONDS = 6n
/** Tolerated difference between the signer's clock and ours when capping validBefore. */
export const CLOCK_SKEW_SECONDS = 30n

/**
 * The latest validBefore accepted: now + the requirements' maxTimeoutSeconds (plus clock skew).
 * A claim whose settlement outcome is unknown stays locked until validBefore, so a far one
 * would lock the user's burns for that long.
 */
export function maxValidBefore(requirements: PaymentRequirements, nowSeconds: bigint): bigint {
  return nowSeconds + BigInt(requirements.maxTimeoutSeconds) + CLOCK_SKEW_SECONDS
}
