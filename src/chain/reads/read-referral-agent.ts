import type { Chain } from '../clients.ts'
import { referralAbi } from '../abis/economy.ts'
import { rpcFailed } from '../upstream-error.ts'

export type ReferralAgentState = { count: bigint; earnings: bigint; registered: boolean; bps: bigint }

/** An agent's referral stats and the contract's reward rate (basis points of the fund half), in one eth_call. */
export async function readReferralAgent(chain: Chain, agent: `0x${string}`): Promise<ReferralAgentState> {
  try {
    const [[count, earnings, registered], bps] = await chain.client.multicall({
      allowFailure: false,
      contracts: [
        { address: chain.contracts.referral, abi: referralAbi, functionName: 'getAgentStats', args: [agent] },
        { address: chain.contracts.referral, abi: referralAbi, functionName: 'referralBps' },
      ],
    })
    return { count, earnings, registered, bps }
  } catch (cause) {
    throw rpcFailed('reading the referral contract', cause)
  }
}
