import { erc20Abi } from 'viem'
import type { Chain } from '../clients.ts'
import { BURN_ADDRESS } from '../constants.ts'
import { rpcFailed } from '../upstream-error.ts'

/** Total supply and the balance of the dead address, in one eth_call. */
export async function readTokenSupply(chain: Chain): Promise<{ totalSupply: bigint; burned: bigint }> {
  try {
    const [totalSupply, burned] = await chain.client.multicall({
      allowFailure: false,
      contracts: [
        { address: chain.contracts.token, abi: erc20Abi, functionName: 'totalSupply' },
        { address: chain.contracts.token, abi: erc20Abi, functionName: 'balanceOf', args: [BURN_ADDRESS] },
      ],
    })
    return { totalSupply, burned }
  } catch (cause) {
    throw rpcFailed('reading the token supply', cause)
  }
}
