import { erc20Abi } from 'viem'
import type { Chain } from '../clients.ts'
import { rpcFailed } from '../upstream-error.ts'

/** A wallet's service-token balance and how many portrait NFTs it holds, in one eth_call. */
export async function readHoldings(chain: Chain, wallet: `0x${string}`): Promise<{ tokens: bigint; nfts: bigint }> {
  try {
    // balanceOf(address) has the same selector and result on the ERC-20 and the ERC-721.
    const [tokens, nfts] = await chain.client.multicall({
      allowFailure: false,
      contracts: [
        { address: chain.contracts.token, abi: erc20Abi, functionName: 'balanceOf', args: [wallet] },
        { address: chain.contracts.nft, abi: erc20Abi, functionName: 'balanceOf', args: [wallet] },
      ],
    })
    return { tokens, nfts }
  } catch (cause) {
    throw rpcFailed('reading eligibility', cause)
  }
}
