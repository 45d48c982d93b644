import { recoverTypedDataAddress, isAddressEqual } from 'viem'
import { maxValidBefore, MIN_REMAINING_SECONDS, type PayerState, type VerifyResult } from './verify-common.ts'
import { transferWithAuthorizationTypes } from '../chain/abis/eip3009.ts'
import { forwarderDomain, type PaymentRequirements } from './requirements.ts'
import { isPermit2Payment, type CompletePaymentPayload, type Eip3009Payment } from './payload.ts'
import { verifyPermit2Payment } from './verify-permit2.ts'

export { CLOCK_SKEW_SECONDS, MIN_REMAINING_SECONDS, maxValidBefore, type PayerState, type VerifyResult } from './verify-common.ts'

/**
 * The x402 `exact` checks, in order, as pure logic over the payload, the requirements, the
 * clock and the payer's chain state, for either transfer method. Returns a reason code of the
 * x402 reference SDKs.
 */
export async function verifyExactPayment(
  payment: CompletePaymentPayload,
  requirements: PaymentRequirements,
  nowSeconds: bigint,
  state?: PayerState,
): Promise<VerifyResult> {
  if (isPermit2Payment(payment)) return verifyPermit2Payment(payment, requirements, nowSeconds, state)
  return verifyEip3009Payment(payment, requirements, nowSeconds, state)
}

async function verifyEip3009Payment(payment: Eip3009Payment, requirements: PaymentRequirements, nowSeconds: bigint, state?: PayerState): Promise<VerifyResult> {
  const auth = payment.payload.authorization
  const payer = auth.from as `0x${string}`
  const fail = (invalidReason: string): VerifyResult => ({ isValid: false, invalidReason, payer })
  if ((payment.scheme ?? 'exact') !== requirements.scheme) return fail('invalid_scheme')
  if ((payment.network ?? requirements.network) !== requirements.network) return fail('invalid_network')
  if (payment.x402Version !== undefined && payment.x402Version !== 1) return fail('invalid_x402_version')
  // The forwarder option only: an EIP-3009 signature over USDm itself can never settle.
  if (requirements.extra.assetTransferMethod === 'permit2') return fail('unsupported_payload_type')

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
    if (state.nonceUsed) return fail('invalid_exact_evm_nonce_already_used')
    if (state.balance < BigInt(auth.value)) return fail('insufficient_funds')
    if (state.allowance < BigInt(auth.value)) return fail('insufficient_allowance')
  }
  return { isValid: true, payer }
}
