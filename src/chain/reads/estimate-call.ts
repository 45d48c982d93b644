import type { Chain } from '../clients.ts'

/**
 * The gas a call would use if sent now from `from`, or undefined when it would revert (or the
 * node could not say): a simulation of the whole call on the chain's current state, contract
 * checks included.
 */
export async function estimateCall(chain: Chain, call: { from: `0x${string}`; to: `0x${string}`; data: `0x${string}` }): Promise<bigint | undefined> {
  return chain.client.estimateGas({ account: call.from, to: call.to, data: call.data }).catch(() => undefined)
}
