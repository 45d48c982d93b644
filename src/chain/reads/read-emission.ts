import type { Chain } from '../clients.ts'
import { emissionControllerAbi } from '../abis/emission-controller.ts'
import { rpcFailed } from '../upstream-error.ts'
import { defiAddress, multicallList, ok } from './defi-contracts.ts'

export type EmissionRead = {
  totalWeeks: bigint
  startTime: bigint
  currentWeek: bigint
  weeklyEmission: bigint
  totalDistributed: bigint
  /** Basis points of each week's emission; they sum to 10000. */
  split: { moggerBps: bigint; jesterBps: bigint; treasuryBps: bigint }
  /** The next weeks' emissions, this week first. */
  projected: bigint[]
}

/** The emission schedule and split in one multicall (this week's emission is the first projected week). */
export async function readEmission(chain: Chain, weeksAhead = 4n): Promise<EmissionRead> {
  const address = defiAddress(chain, 'emissionController')
  const call = (functionName: string, args: readonly unknown[] = []) => ({ address, abi: emissionControllerAbi, functionName, args })
  try {
    const r = await multicallList(chain, [
      call('TOTAL_WEEKS'), call('startTime'), call('getCurrentWeek'), call('getCurrentSplit'), call('totalDistributed'), call('getProjectedEmissions', [weeksAhead]),
    ])
    const currentWeek = ok<bigint>(r[2])
    const projected = [...ok<readonly bigint[]>(r[5])]
    const [moggerBps, jesterBps, treasuryBps] = ok<readonly [bigint, bigint, bigint]>(r[3])
    return {
      totalWeeks: ok<bigint>(r[0]), startTime: ok<bigint>(r[1]), currentWeek, weeklyEmission: projected[0] ?? 0n,
      totalDistributed: ok<bigint>(r[4]), split: { moggerBps, jesterBps, treasuryBps }, projected,
    }
  } catch (cause) {
    throw rpcFailed('reading the emission schedule', cause)
  }
}
