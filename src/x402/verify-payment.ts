import { recoverTypedDataAddress, isAddressEqual } from 'viem'
import { transferWithAuthorizationTypes } from '../chain/abis/eip3009.ts'
import { forwarderDomain, type PaymentRequirements } from './requirements.ts'
import type { CompletePaymentPayload } from './payload.ts'

export type VerifyResult = { isValid: true; payer: `0x${string}` } | { isValid: false; invalidReason: string; payer?: `0x${string}` }

/** What the chain says about the payer, read by the caller (one multicall). */
export type PayerState = { authorizationUsed: boolean; balance: bigint; allowance: bigint }

/** Validity margin: a payment that expires in the next seconds could not settle in time. */
const MIN_REMAINING_SECONDS = 6n
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

/**
 * The x402 `exact` checks, in order, as pure logic over the payload, the requirements, the
 * clock and the payer's chain state. Returns a reason code of the x402 reference SDKs.
 */
export async function verifyExactPayment(
  payment: CompletePaymentPayload,
  requirements: PaymentRequirements,
  nowSeconds: bigint,
  state?: PayerState,
): Promise<VerifyResult> {
  const auth = payment.payload.authorization
  const payer = auth.from as `0x${string}`
  const fail = (invalidReason: string): VerifyResult => ({ isValid: false, invalidReason, payer })
  if ((payment.scheme ?? 'exact') !== requirements.scheme) return fail('invalid_scheme')
  if ((payment.network ?? requirements.network) !== requirements.network) return fail('invalid_network')
  if (payment.x402Version !== undefined && payment.x402Version !== 1) return fail('invalid_x402_version')

  let signer: `0x${string}`
  try {
    signer = await recoverTypedDataAddress({
      domain: forwarderDomain(requirements.asset as `0x${string}`),
      types: transferWithAuthorizationTypes,
      primaryType: 'TransferWithAuthorization',
      message: {
        from: payer,
        to: auth.to as `0x${string}`,
        value: BigInt(auth.value),
        validAfter: BigInt(auth.validAfter),
        validBefore: BigInt(auth.validBefore),
        nonce: auth.nonce as `0x${string}`,
      },
      signature: payment.payload.signature as `0x${string}`,
    })
  } catch {
    return fail('invalid_exact_evm_payload_signature')
  }
  if (!isAddressEqual(signer, payer)) return fail('invalid_exact_evm_payload_signature')
  if (!isAddressEqual(auth.to as `0x${string}`, requirements.payTo as `0x${string}`)) {
    return fail('invalid_exact_evm_payload_recipient_mismatch')
  }
  if (BigInt(auth.validBefore) < nowSeconds + MIN_REMAINING_SECONDS) return fail('invalid_exact_evm_payload_authorization_valid_before')
  if (BigInt(auth.validBefore) > maxValidBefore(requirements, nowSeconds)) return fail('invalid_exact_evm_payload_authorization_valid_before')
  // The forwarder requires block.timestamp > validAfter: an authorization valid only from this
  // very second would revert if settled in a block of this second, so it is refused as the
  // chain would refuse it (a reverted settlement must never get as far as a claim).
  if (BigInt(auth.validAfter) >= nowSeconds) return fail('invalid_exact_evm_payload_authorization_valid_after')
  if (BigInt(auth.value) !== BigInt(requirements.maxAmountRequired)) return fail('invalid_exact_evm_payload_authorization_value')
  if (state) {
    if (state.authorizationUsed) return fail('invalid_exact_evm_nonce_already_used')
    if (state.balance < BigInt(auth.value)) return fail('insufficient_funds')
    if (state.allowance < BigInt(auth.value)) return fail('insufficient_allowance')
  }
  return { isValid: true, payer }
}
