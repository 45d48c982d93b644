import { encodeFunctionData } from 'viem'
import { referralAbi } from '../abis/economy.ts'

/** Calldata of burnWithReferral(referrer): a burn through the referral contract that rewards `referrer`. */
export function buildBurnWithReferral(referrer: `0x${string}`): `0x${string}` {
  return encodeFunctionData({ abi: referralAbi, functionName: 'burnWithReferral', args: [referrer] })
}
