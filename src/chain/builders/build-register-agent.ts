import { encodeFunctionData } from 'viem'
import { referralAbi } from '../abis/economy.ts'

/** The referral contract's registerAgent() as unsigned transaction instructions, sent by the agent itself. */
export function buildRegisterAgent(args: { referral: `0x${string}`; chainId: number }) {
  return { to: args.referral, data: encodeFunctionData({ abi: referralAbi, functionName: 'registerAgent' }), chainId: args.chainId, value: '0' }
}
