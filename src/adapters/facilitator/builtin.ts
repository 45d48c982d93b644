import { isAddressEqual } from 'viem'
import type { Chain } from '../../chain/clients.ts'
import type { TxSender } from '../../chain/sender/tx-sender.ts'
import { buildSettlementCall, settlementTarget, simulateSettlement } from '../../x402/settlement-call.ts'
import { paymentTerms, type CompletePaymentPayload } from '../../x402/payload.ts'
import type { PaymentRequirements } from '../../x402/requirements.ts'
import { createChainVerifier } from './verify-on-chain.ts'
import type { Facilitator, SettleResult } from './port.ts'

/** The sender key of a payment's settlement: one per (payer, nonce), so it is signed once. */
export function settlementKey(from: string, nonce: string): string {
  return `settle:${from.toLowerCase()}:${nonce.toLowerCase()}`
}

/**
 * How recent a caller's own verification and simulation of a payment must be for the
 * settlement to rely on them instead of reading the chain twice more (a looksmaxx verifies and
 * simulates before its claim, tens of milliseconds before it settles). In that window only the
 * payer can change the outcome (by using or cancelling the authorization elsewhere): the
 * transaction then reverts, costing its gas, and the settlement step reads the chain and
 * refuses, as for any settlement that did not pay.
 */
export const PRECHECK_FRESH_MS = 2_000

/**
 * The embedded facilitator: verifies the payment against the chain and settles it with its
 * own key, waiting for the receipt: transferWithAuthorization on the forwarder for an EIP-3009
 * payment, settle (or settleWithPermit) on the x402 exact Permit2 proxy for a Permit2 one.
 */
export function createBuiltinFacilitator(deps: { chain: Chain; sender: TxSender; now?: () => bigint }): Facilitator {
  const { chain, sender } = deps
  const verify = createChainVerifier(chain, deps.now)
  return {
    name: 'builtin',
    verify,
    async settle(payment, requirements, options = {}): Promise<SettleResult> {
      const terms = paymentTerms(payment)
      const key = settlementKey(terms.from, terms.nonce)
      // Checked by the caller just now, simulated from this sender's address (a contract may look at the caller).
      const { checked } = options
      if (checked && Date.now() - checked.atMs <= PRECHECK_FRESH_MS && isAddressEqual(checked.simulatedFrom, sender.address)) return send(payment, requirements, key, terms.from)
      const verdict = await verify(payment, requirements)
      if (!verdict.isValid) {
        // Our own earlier settlement of this very payment counts as success.
        const previous = await sender.find(key)
        if (previous?.status === 'mined') {
          return { success: true, transaction: previous.txHash, network: requirements.network, payer: terms.from }
        }
        return { success: false, errorReason: verdict.invalidReason, network: requirements.network, payer: verdict.payer }
      }
      // The contract decides: a settlement that would revert is a refusal, never a transaction.
      const simulated = await simulateSettlement(chain, payment, requirements, sender.address)
      if (!simulated.ok) {
        return { success: false, errorReason: `settlement_reverted: ${simulated.reason}`, network: requirements.network, payer: terms.from }
      }
      return send(payment, requirements, key, terms.from)
    },
  }

  async function send(payment: CompletePaymentPayload, requirements: PaymentRequirements, key: string, payer: `0x${string}`): Promise<SettleResult> {
    const mined = await sender.sendAndWait({ key, to: settlementTarget(payment, requirements), data: buildSettlementCall(payment) })
    if (mined.status !== 'mined') return { success: false, errorReason: 'invalid_transaction_state', network: requirements.network, payer }
    return { success: true, transaction: mined.txHash, network: requirements.network, payer }
  }
}

