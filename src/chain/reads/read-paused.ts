import type { Chain } from '../clients.ts'
import { circuitBreakerAbi } from '../abis/circuit-breaker.ts'
import { rpcFailed } from '../upstream-error.ts'

/**
 * Whether the circuit breaker pauses the protocol now: the pair (swap, addLiquidity) and both
 * staking venues (stake) then revert. False on a deployment without a breaker.
 */
export async function readPaused(chain: Chain): Promise<boolean> {
  const breaker = chain.contracts.circuitBreaker
  if (!breaker) return false
  try {
    return await chain.client.readContract({ address: breaker, abi: circuitBreakerAbi, functionName: 'isPaused' })
  } catch (cause) {
    throw rpcFailed('reading the circuit breaker', cause)
  }
}
