import type { Chain } from '../clients.ts'
import { rankingAbi } from '../abis/ranking.ts'
import { rpcFailed } from '../upstream-error.ts'
import { defiAddress, multicallList, ok } from './defi-contracts.ts'

const ZERO = '0x0000000000000000000000000000000000000000'

export type ProposeEligibility = {
  currentWeek: bigint
  /** This week's top 3 senders of the ranking, largest first (empty slots left out). */
  top3: { address: `0x${string}`; amount: bigint }[]
  /** With a proposer: whether it is in the top 3 of this or last week. */
  canPropose?: boolean
}

/** Eligibility to propose: the week, its top 3 and (with a proposer) canPropose, in two eth_calls (the week names the top 3). */
export async function readProposeEligibility(chain: Chain, proposer?: `0x${string}`): Promise<ProposeEligibility> {
  const ranking = defiAddress(chain, 'ranking')
  try {
    const first = await multicallList(chain, [
      { address: ranking, abi: rankingAbi, functionName: 'getCurrentWeek' },
      ...(proposer ? [{ address: ranking, abi: rankingAbi, functionName: 'canPropose', args: [proposer] }] : []),
    ])
    const currentWeek = ok<bigint>(first[0])
    const [who, amounts] = await chain.client.readContract({ address: ranking, abi: rankingAbi, functionName: 'getWeekTop3', args: [currentWeek] })
    const top3 = who.map((address, i) => ({ address, amount: amounts[i]! })).filter((e) => e.address !== ZERO)
    return { currentWeek, top3, ...(proposer ? { canPropose: ok<boolean>(first[1]) } : {}) }
  } catch (cause) {
    throw rpcFailed('reading the proposer eligibility', cause)
  }
}
