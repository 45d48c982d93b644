import { getAddress, isAddressEqual, recoverTypedDataAddress } from 'viem'
import { CHAIN_ID, PERMIT2_ADDRESS, X402_EXACT_PERMIT2_PROXY } from '../chain/constants.ts'
import { permit2WitnessTypes } from '../chain/abis/permit2.ts'
import { EIP2612_GAS_SPONSORING, eip2612InfoSchema, type Permit2Payment } from './payload.ts'
import type { PaymentRequirements } from './requirements.ts'
import { maxValidBefore, MIN_REMAINING_SECONDS, type PayerState, type VerifyResult } from './verify-common.ts'

/** The EIP-712 domain of Permit2: name only, no version. */
export function permit2Domain() {
  return { name: 'Permit2', chainId: CHAIN_ID, verifyingContract: PERMIT2_ADDRESS } as const
}

/** The message a Permit2 payment signs, with numbers as bigints. */
export function permit2Message(payment: Permit2Payment) {
  const auth = payment.payload.permit2Authorization
  return {
    permitted: { token: getAddress(auth.permitted.token), amount: BigInt(auth.permitted.amount) },
    spender: getAddress(auth.spender),
    nonce: BigInt(auth.nonce),
    deadline: BigInt(auth.deadline),
    witness: { to: getAddress(auth.witness.to), validAfter: BigInt(auth.witness.validAfter) },
  }
}

/**
 * The x402 `exact` checks of a Permit2 payment, in the order the x402 facilitator makes them
 * (@x402/evm verifyPermit2), as pure logic over the payload, the requirements, the clock and
 * the payer's chain state. Returns the reason codes of that facilitator. A deadline further
 * than maxTimeoutSeconds is refused too: an unknown settlement locks the burns until then.
 */
export async function verifyPermit2Payment(payment: Permit2Payment, requirements: PaymentRequirements, nowSeconds: bigint, state?: PayerState): Promise<VerifyResult> {
  const auth = payment.payload.permit2Authorization
  const payer = getAddress(auth.from)
  const fail = (invalidReason: string): VerifyResult => ({ isValid: false, invalidReason, payer })
  if ((payment.scheme ?? 'exact') !== requirements.scheme) return fail('invalid_scheme')
  if ((payment.network ?? requirements.network) !== requirements.network) return fail('invalid_network')
  if (requirements.extra.assetTransferMethod !== 'permit2') return fail('unsupported_payload_type')
  if (!isAddressEqual(auth.spender as `0x${string}`, X402_EXACT_PERMIT2_PROXY)) return fail('invalid_permit2_spender')
  if (!isAddressEqual(auth.witness.to as `0x${string}`, requirements.payTo as `0x${string}`)) return fail('invalid_permit2_recipient_mismatch')
  const deadline = BigInt(auth.deadline)
  if (deadline < nowSeconds + MIN_REMAINING_SECONDS) return fail('permit2_deadline_expired')
  if (deadline > maxValidBefore(requirements, nowSeconds)) return fail('permit2_deadline_too_far')
  if (BigInt(auth.witness.validAfter) > nowSeconds) return fail('permit2_not_yet_valid')
  if (BigInt(auth.permitted.amount) !== BigInt(requirements.maxAmountRequired)) return fail('permit2_amount_mismatch')
  if (!isAddressEqual(auth.permitted.token as `0x${string}`, requirements.asset as `0x${string}`)) return fail('permit2_token_mismatch')
  let signer: `0x${string}`
  try {
    signer = await recoverTypedDataAddress({
      domain: permit2Domain(),
      types: permit2WitnessTypes,
      primaryType: 'PermitWitnessTransferFrom',
      message: permit2Message(payment),
      signature: payment.payload.signature,
    })
  } catch {
    return fail('invalid_permit2_signature')
  }
  if (!isAddressEqual(signer, payer)) return fail('invalid_permit2_signature')
  const permit = payment.extensions?.[EIP2612_GAS_SPONSORING]?.info
  if (permit) {
    if (!eip2612InfoSchema.safeParse(permit).success || !/^0x[0-9a-fA-F]{130}$/.test(permit.signature)) return fail('invalid_eip2612_extension_format')
    if (!isAddressEqual(permit.from as `0x${string}`, payer)) return fail('eip2612_from_mismatch')
    if (!isAddressEqual(permit.asset as `0x${string}`, requirements.asset as `0x${string}`)) return fail('eip2612_asset_mismatch')
    if (!isAddressEqual(permit.spender as `0x${string}`, PERMIT2_ADDRESS)) return fail('eip2612_spender_not_permit2')
    if (BigInt(permit.deadline) < nowSeconds + MIN_REMAINING_SECONDS) return fail('eip2612_deadline_expired')
    // The proxy's settleWithPermit refuses a permit of another amount (Permit2612AmountMismatch).
    if (BigInt(permit.amount) !== BigInt(auth.permitted.amount)) return fail('permit2_2612_amount_mismatch')
  }
  if (state) {
    if (state.nonceUsed) return fail('permit2_invalid_nonce')
    if (state.balance < BigInt(auth.permitted.amount)) return fail('permit2_insufficient_balance')
    // With a permit the settlement approves Permit2 itself; without one the approval must exist.
    if (!permit && state.allowance < BigInt(auth.permitted.amount)) return fail('permit2_allowance_required')
  }
  return { isValid: true, payer }
}
