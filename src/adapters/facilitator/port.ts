import type { PaymentRequirements } from '../../x402/requirements.ts'
import type { CompletePaymentPayload } from '../../x402/payload.ts'
import type { VerifyResult } from '../../x402/verify-payment.ts'

export type SettleResult =
  | { success: true; transaction: `0x${string}`; network: string; payer: `0x${string}` }
  | { success: false; errorReason: string; network: string; payer?: `0x${string}` }

/**
 * An x402 facilitator. `settle` resolves with a verdict, or throws when the outcome is
 * unknown (timeout, 5xx): the caller must then read the chain, never settle again.
 */
export type Facilitator = {
  name: string
  verify(payment: CompletePaymentPayload, requirements: PaymentRequirements): Promise<VerifyResult>
  /**
   * `checked`: when the caller itself verified this payment against the chain and simulated its
   * settlement (both passed), and from which address it simulated. A facilitator may then skip
   * repeating them; one that cannot tell ignores it.
   */
  settle(payment: CompletePaymentPayload, requirements: PaymentRequirements, options?: { checked?: { atMs: number; simulatedFrom: `0x${string}` } }): Promise<SettleResult>
}
