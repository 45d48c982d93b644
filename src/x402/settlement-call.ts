import { BaseError, ContractFunctionRevertedError, decodeErrorResult, encodeFunctionData, parseSignature } from 'viem'
import type { Chain } from '../chain/clients.ts'
import { eip3009Abi } from '../chain/abis/eip3009.ts'
import { x402ExactPermit2ProxyAbi } from '../chain/abis/permit2.ts'
import { rpcFailed } from '../chain/upstream-error.ts'
import { isPermit2Payment, type CompletePaymentPayload, type Eip3009Payment } from './payload.ts'
import type { PaymentRequirements } from './requirements.ts'
import { X402_EXACT_PERMIT2_PROXY } from '../chain/constants.ts'
import { buildPermit2SettlementCall } from './permit2-settlement-call.ts'

/** The contract a settlement calls: the forwarder (the requirement's asset), or the x402 Permit2 proxy. */
export function settlementTarget(payment: CompletePaymentPayload, requirements: PaymentRequirements): `0x${string}` {
  return isPermit2Payment(payment) ? X402_EXACT_PERMIT2_PROXY : (requirements.asset as `0x${string}`)
}

/** The calldata of the settlement, for either transfer method. */
export function buildSettlementCall(payment: CompletePaymentPayload): `0x${string}` {
  return isPermit2Payment(payment) ? buildPermit2SettlementCall(payment) : buildEip3009SettlementCall(payment)
}

/**
 * transferWithAuthorization on the forwarder. 65-byte EOA signatures use the (v, r, s)
 * overload; longer ones (smart wallets) the bytes one.
 */
function buildEip3009SettlementCall(payment: Eip3009Payment): `0x${string}` {
  const auth = payment.payload.authorization
  const signature = payment.payload.signature as `0x${string}`
  const args = [
    auth.from as `0x${string}`,
    auth.to as `0x${string}`,
    BigInt(auth.value),
    BigInt(auth.validAfter),
    BigInt(auth.validBefore),
    auth.nonce as `0x${string}`,
  ] as const
  if (signature.length === 132) {
    const { v, r, s, yParity } = parseSignature(signature)
    return encodeFunctionData({ abi: eip3009Abi, functionName: 'transferWithAuthorization', args: [...args, Number(v ?? BigInt(yParity) + 27n), r, s] })
  }
  return encodeFunctionData({ abi: eip3009Abi, functionName: 'transferWithAuthorization', args: [...args, signature] })
}

export type SimulationResult = { ok: true } | { ok: false; reason: string }

/**
 * Runs the settlement as an eth_call against the pending block (whose timestamp is the
 * chain's "now", as the settlement's block will be), so a payment the forwarder or the Permit2
 * proxy would revert (not yet valid, expired, used or cancelled, bad signature, no allowance)
 * is refused before anything is claimed, whatever facilitator is configured. An RPC failure
 * throws (502).
 */
export async function simulateSettlement(chain: Chain, payment: CompletePaymentPayload, requirements: PaymentRequirements, caller: `0x${string}`): Promise<SimulationResult> {
  const data = buildSettlementCall(payment)
  const target = settlementTarget(payment, requirements)
  const simulate = async (blockTag: 'pending' | 'latest'): Promise<SimulationResult> => {
    try {
      await chain.client.call({ account: caller, to: target, data, blockTag })
      return { ok: true }
    } catch (cause) {
      const reason = revertReason(cause)
      if (reason !== undefined) return { ok: false, reason }
      throw cause
    }
  }
  try {
    return await simulate('pending')
  } catch {
    // An RPC that does not serve the pending block gets the call on the latest one.
  }
  try {
    return await simulate('latest')
  } catch (cause) {
    throw rpcFailed('simulating the payment settlement', cause)
  }
}

/** The revert reason of a failed eth_call, or undefined when the call did not revert (RPC failure). */
function revertReason(error: unknown): string | undefined {
  if (!(error instanceof BaseError)) return undefined
  const reverted = error.walk((e) => e instanceof ContractFunctionRevertedError)
  if (reverted instanceof ContractFunctionRevertedError) return reverted.reason ?? reverted.shortMessage
  const raw = error.walk((e) => typeof (e as { data?: unknown }).data === 'string' && /^0x/.test((e as { data: string }).data)) as { data?: `0x${string}` } | null
  if (raw?.data) {
    try {
      const decoded = decodeErrorResult({ abi: x402ExactPermit2ProxyAbi, data: raw.data })
      return String(decoded.args?.[0] ?? decoded.errorName)
    } catch {
      return 'execution reverted'
    }
  }
  return /revert/i.test(error.message) ? (error.details || error.shortMessage) : undefined
}
