import { erc20Abi } from 'viem'
import type { Chain } from '../../chain/clients.ts'
import { eip3009Abi } from '../../chain/abis/eip3009.ts'
import { permit2Abi } from '../../chain/abis/permit2.ts'
import { PERMIT2_ADDRESS } from '../../chain/constants.ts'
import { rpcFailed } from '../../chain/upstream-error.ts'
import { isPermit2Payment, paymentTerms, type CompletePaymentPayload } from '../../x402/payload.ts'
import type { PaymentRequirements } from '../../x402/requirements.ts'
import { verifyExactPayment, type PayerState, type VerifyResult } from '../../x402/verify-payment.ts'

export type VerifyPayment = (payment: CompletePaymentPayload, requirements: PaymentRequirements) => Promise<VerifyResult>

/**
 * The x402 `exact` verification done here rather than by a facilitator: the pure checks of
 * either transfer method over the payer's state read in one multicall (the nonce, the USDm
 * balance, the allowance of the contract that pulls the fee). The built-in facilitator and a
 * settle-only one (which offers no /verify) both use it.
 */
export function createChainVerifier(chain: Chain, now: () => bigint = () => BigInt(Math.floor(Date.now() / 1000))): VerifyPayment {
  async function readPayerState(payment: CompletePaymentPayload, requirements: PaymentRequirements): Promise<PayerState> {
    const terms = paymentTerms(payment)
    const permit2 = isPermit2Payment(payment)
    // The token moved: USDm itself on the Permit2 option; behind the forwarder, the chain's USDm.
    const token = permit2 ? (requirements.asset as `0x${string}`) : chain.contracts.usdm
    const spender = permit2 ? PERMIT2_ADDRESS : (requirements.asset as `0x${string}`)
    const nonceCall = permit2
      ? ({ address: PERMIT2_ADDRESS, abi: permit2Abi, functionName: 'nonceBitmap', args: [terms.from, BigInt(terms.nonce) >> 8n] } as const)
      : ({ address: requirements.asset as `0x${string}`, abi: eip3009Abi, functionName: 'authorizationState', args: [terms.from, terms.nonce] } as const)
    try {
      const [nonceState, balance, allowance] = await chain.client.multicall({
        allowFailure: false,
        contracts: [
          nonceCall,
          { address: token, abi: erc20Abi, functionName: 'balanceOf', args: [terms.from] },
          { address: token, abi: erc20Abi, functionName: 'allowance', args: [terms.from, spender] },
        ],
      })
      const nonceUsed = typeof nonceState === 'boolean' ? nonceState : ((nonceState as bigint) >> (BigInt(terms.nonce) & 0xffn)) & 1n ? true : false
      return { nonceUsed, balance, allowance }
    } catch (cause) {
      throw rpcFailed('reading the payer state', cause)
    }
  }
  return async (payment, requirements) => verifyExactPayment(payment, requirements, now(), await readPayerState(payment, requirements))
}
