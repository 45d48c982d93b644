import type { Chain } from '../clients.ts'
import { circuitBreakerAbi } from '../abis/circuit-breaker.ts'
import { vetoCouncilAbi } from '../abis/veto-council.ts'
import { rpcFailed } from '../upstream-error.ts'
import { defiAddress, multicallList, ok } from './defi-contracts.ts'

const ZERO = '0x0000000000000000000000000000000000000000'

export type SafetyRead = {
  circuitBreaker: {
    paused: boolean
    pausedAt: bigint
    /** 0 when not paused. */
    autoUnpauseTime: bigint
    guardians: `0x${string}`[]
    pauseVotes: { yes: bigint; no: bigint }
    unpauseVotes: { yes: bigint; no: bigint }
  }
  vetoCouncil: { councilSize: bigint; vetoThreshold: bigint; vetoWindowSeconds: bigint; members: `0x${string}`[]; seatsFilled: number }
}

/** The safety snapshot to check before writes, in one multicall. */
export async function readSafety(chain: Chain): Promise<SafetyRead> {
  const breaker = defiAddress(chain, 'circuitBreaker')
  const council = defiAddress(chain, 'vetoCouncil')
  try {
    const r = await multicallList(chain, [
      { address: breaker, abi: circuitBreakerAbi, functionName: 'getPauseStatus' },
      { address: breaker, abi: circuitBreakerAbi, functionName: 'getGuardians' },
      { address: council, abi: vetoCouncilAbi, functionName: 'COUNCIL_SIZE' },
      { address: council, abi: vetoCouncilAbi, functionName: 'VETO_THRESHOLD' },
      { address: council, abi: vetoCouncilAbi, functionName: 'VETO_VOTING_PERIOD' },
      { address: council, abi: vetoCouncilAbi, functionName: 'getCouncil' },
    ])
    const status = ok<readonly [boolean, bigint, bigint, bigint, bigint, bigint, bigint]>(r[0])
    const members = ok<readonly `0x${string}`[]>(r[5]).filter((m) => m !== ZERO)
    return {
      circuitBreaker: {
        paused: status[0], pausedAt: status[1], autoUnpauseTime: status[2], guardians: [...ok<readonly `0x${string}`[]>(r[1])],
        pauseVotes: { yes: status[3], no: status[4] }, unpauseVotes: { yes: status[5], no: status[6] },
      },
      vetoCouncil: { councilSize: ok<bigint>(r[2]), vetoThreshold: ok<bigint>(r[3]), vetoWindowSeconds: ok<bigint>(r[4]), members, seatsFilled: members.length },
    }
  } catch (cause) {
    throw rpcFailed('reading the safety state', cause)
  }
}
