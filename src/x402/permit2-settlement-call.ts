import { encodeFunctionData, getAddress, parseErc6492Signature } from 'viem'
import { x402ExactPermit2ProxyAbi } from '../chain/abis/permit2.ts'
import { EIP2612_GAS_SPONSORING, type Permit2Payment } from './payload.ts'

/**
 * The calldata of a Permit2 settlement on the x402 exact proxy: `settle`, or
 * `settleWithPermit` when the payer sent its EIP-2612 permit of Permit2 (the proxy then
 * approves and pays in one transaction), as the x402 facilitator builds them.
 */
export function buildPermit2SettlementCall(payment: Permit2Payment): `0x${string}` {
  const auth = payment.payload.permit2Authorization
  // A counterfactual smart wallet's ERC-6492 wrapper is for off-chain checks; Permit2 gets the inner signature.
  const { signature } = parseErc6492Signature(payment.payload.signature)
  const permit = {
    permitted: { token: getAddress(auth.permitted.token), amount: BigInt(auth.permitted.amount) },
    nonce: BigInt(auth.nonce),
    deadline: BigInt(auth.deadline),
  }
  const witness = { to: getAddress(auth.witness.to), validAfter: BigInt(auth.witness.validAfter) }
  const owner = getAddress(auth.from)
  const eip2612 = payment.extensions?.[EIP2612_GAS_SPONSORING]?.info
  if (!eip2612) {
    return encodeFunctionData({ abi: x402ExactPermit2ProxyAbi, functionName: 'settle', args: [permit, owner, witness, signature] })
  }
  // Split as the x402 facilitator does (r, s, v bytes); verification required 65 bytes.
  const raw = eip2612.signature.slice(2)
  const r = `0x${raw.slice(0, 64)}` as const
  const s = `0x${raw.slice(64, 128)}` as const
  const v = Number.parseInt(raw.slice(128, 130), 16)
  return encodeFunctionData({
    abi: x402ExactPermit2ProxyAbi,
    functionName: 'settleWithPermit',
    args: [{ value: BigInt(eip2612.amount), deadline: BigInt(eip2612.deadline), r, s, v }, permit, owner, witness, signature],
  })
}
