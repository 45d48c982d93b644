import type { Chain } from '../clients.ts'
import { rankingAbi } from '../abis/ranking.ts'
import { rpcFailed } from '../upstream-error.ts'
import { defiAddress, multicallList, ok } from './defi-contracts.ts'

const ZERO = '0x0000000000000000000000000000000000000000'

export type ProposeEligibility = {
  currentWeek: bigint
  /** This week's top 3 senders of the ranking, largest first (empty slots left out). */
  top3: { address: `0x${string}`; amount: bigint }[]
  /** Last week's top 3: they may propose this week too (empty in week 0). */
  lastWeekTop3: { address: `0x${string}`; amount: bigint }[]
  /** With a proposer: whether it is in the top 3 of this or last week. */
  canPropose?: boolean
}

/** Eligibility to propose: the week, its top 3 and (with a proposer) canPropose, in two eth_calls (the week names the top 3s). */
export async function readProposeEligibility(chain: Chain, proposer?: `0x${string}`): Promise<ProposeEligibility> {
  const ranking = defiAddress(chain, 'ranking')
  try {
    const first = await multicallList(chain, [
      { address: ranking, abi: rankingAbi, functionName: 'getCurrentWeek' },
      ...(proposer ? [{ address: ranking, abi: rankingAbi, functionName: 'canPropose', args: [proposer] }] : []),
    ])
    const currentWeek = ok<bigint>(first[0])
    const weeks = currentWeek > 0n ? [currentWeek, currentWeek - 1n] : [currentWeek]
    const tops = await multicallList(chain, weeks.map((week) => ({ address: ranking, abi: rankingAbi, functionName: 'getWeekTop3', args: [week] })))
    const entries = (i: number) => {
      if (i >= tops.length) return []
      const [who, amounts] = ok<readonly [readonly `0x${string}`[], readonly bigint[]]>(tops[i])
      return who.map((address, j) => ({ address, amount: amounts[j]! })).filter((e) => e.address !== ZERO)
    }
    return { currentWeek, top3: entries(0), lastWeekTop3: entries(1), ...(proposer ? { canPropose: ok<boolean>(first[1]) } : {}) }
  } catch (cause) {
    throw rpcFailed('reading the proposer eligibility', cause)
  }
}
