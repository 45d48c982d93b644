import { erc20Abi, type LocalAccount } from 'viem'
import type { Chain } from '../../chain/clients.ts'
import type { TxSender } from '../../chain/sender/tx-sender.ts'
import { eip3009Abi } from '../../chain/abis/eip3009.ts'
import { buildSettlementCall, simulateSettlement } from '../../x402/settlement-call.ts'
import { rpcFailed } from '../../chain/upstream-error.ts'
import { verifyExactPayment, type PayerState } from '../../x402/verify-payment.ts'
import type { Facilitator, SettleResult } from './port.ts'

/**
 * The embedded facilitator: verifies the EIP-3009 authorization against the chain and
 * settles it by calling transferWithAuthorization with its own key, waiting for the receipt.
 */
export function createBuiltinFacilitator(deps: { chain: Chain; sender: TxSender; now?: () => bigint }): Facilitator {
  const { chain, sender } = deps
  const now = deps.now ?? (() => BigInt(Math.floor(Date.now() / 1000)))

  async function readPayerState(forwarder: `0x${string}`, from: `0x${string}`, nonce: `0x${string}`): Promise<PayerState> {
    try {
      const [authorizationUsed, balance, allowance] = await chain.client.multicall({
        allowFailure: false,
        contracts: [
          { address: forwarder, abi: eip3009Abi, functionName: 'authorizationState', args: [from, nonce] },
          { address: chain.contracts.usdm, abi: erc20Abi, functionName: 'balanceOf', args: [from] },
          { address: chain.contracts.usdm, abi: erc20Abi, functionName: 'allowance', args: [from, forwarder] },
        ],
      })
      return { authorizationUsed, balance, allowance }
    } catch (cause) {
      throw rpcFailed('reading the payer state', cause)
    }
  }

  const facilitator: Facilitator = {
    name: 'builtin',
    async verify(payment, requirements) {
      const auth = payment.payload.authorization
      const state = await readPayerState(requirements.asset as `0x${string}`, auth.from as `0x${string}`, auth.nonce as `0x${string}`)
      return verifyExactPayment(payment, requirements, now(), state)
    },
    async settle(payment, requirements): Promise<SettleResult> {
      const verdict = await facilitator.verify(payment, requirements)
      const auth = payment.payload.authorization
      const key = `settle:${auth.from.toLowerCase()}:${auth.nonce.toLowerCase()}`
      if (!verdict.isValid) {
        // Our own earlier settlement of this very authorization counts as success.
        const previous = await sender.find(key)
        if (previous?.status === 'mined') {
          return { success: true, transaction: previous.txHash, network: requirements.network, payer: auth.from as `0x${string}` }
        }
        return { success: false, errorReason: verdict.invalidReason, network: requirements.network, payer: verdict.payer }
      }
      // The forwarder decides: a settlement that would revert is a refusal, never a transaction.
      const simulated = await simulateSettlement(chain, payment, requirements.asset as `0x${string}`, sender.address)
      if (!simulated.ok) {
        return { success: false, errorReason: `settlement_reverted: ${simulated.reason}`, network: requirements.network, payer: auth.from as `0x${string}` }
      }
      const data = buildSettlementCall(payment)
      const mined = await sender.sendAndWait({ key, to: requirements.asset as `0x${string}`, data })
      if (mined.status !== 'mined') {
        return { success: false, errorReason: 'invalid_transaction_state', network: requirements.network, payer: auth.from as `0x${string}` }
      }
      return { success: true, transaction: mined.txHash, network: requirements.network, payer: auth.from as `0x${string}` }
    },
  }
  return facilitator
}

export type { LocalAccount }
