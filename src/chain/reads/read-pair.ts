import { erc20Abi } from 'viem'
import type { Chain } from '../clients.ts'
import { pairAbi } from '../abis/pair.ts'
import type { PairInputStyle, PairState } from '../builders/build-pair-plans.ts'
import { rpcFailed } from '../upstream-error.ts'
import { defiAddress, multicallList, ok } from './defi-contracts.ts'

export type PairRead = PairState & {
  lpTotalSupply: bigint
  /** With an owner: its allowances of tokenA and tokenB to the pair, and its LP balance. */
  allowanceA?: bigint
  allowanceB?: bigint
  lpBalance?: bigint
}

/**
 * Tokens, reserves, LP supply and input style of the MC/MG pair in one multicall. The style
 * comes from the devnet pair's `INPUT_STYLE()` (1 → 'transfer'); a pair without it (the
 * recorded MegaChadLP) answers with a revert and is taken as 'pull', which is also the safe
 * default: an approve-then-swap plan cannot lose tokens on either style.
 */
export async function readPair(chain: Chain, owner?: `0x${string}`): Promise<PairRead> {
  const pair = defiAddress(chain, 'pair')
  const token = chain.contracts.token
  const secondToken = defiAddress(chain, 'secondToken')
  try {
    const results = await multicallList(chain, [
        { address: pair, abi: pairAbi, functionName: 'tokenA' },
        { address: pair, abi: pairAbi, functionName: 'tokenB' },
        { address: pair, abi: pairAbi, functionName: 'getReserves' },
        { address: pair, abi: pairAbi, functionName: 'totalSupply' },
        { address: pair, abi: pairAbi, functionName: 'INPUT_STYLE' },
        ...(owner
          ? ([
              { address: token, abi: erc20Abi, functionName: 'allowance', args: [owner, pair] },
              { address: secondToken, abi: erc20Abi, functionName: 'allowance', args: [owner, pair] },
              { address: pair, abi: pairAbi, functionName: 'balanceOf', args: [owner] },
            ])
          : []),
    ])
    const value = <T>(i: number): T => ok<T>(results[i])
    const tokenA = value<`0x${string}`>(0)
    const tokenB = value<`0x${string}`>(1)
    const [reserveA, reserveB] = value<readonly [bigint, bigint]>(2)
    const style: PairInputStyle = results[4]!.status === 'success' && results[4]!.result === 1 ? 'transfer' : 'pull'
    // Allowances are keyed to MC/MG; map them onto the pair's A/B order.
    const aIsToken = tokenA.toLowerCase() === token.toLowerCase()
    return {
      pair, tokenA, tokenB, reserveA, reserveB, style, lpTotalSupply: value<bigint>(3),
      ...(owner
        ? {
            allowanceA: value<bigint>(aIsToken ? 5 : 6),
            allowanceB: value<bigint>(aIsToken ? 6 : 5),
            lpBalance: value<bigint>(7),
          }
        : {}),
    }
  } catch (cause) {
    throw rpcFailed('reading the MC/MG pair', cause)
  }
}
