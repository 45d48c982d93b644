import { erc20Abi, multicall3Abi } from 'viem'
import type { Chain } from '../clients.ts'
import { rpcFailed } from '../upstream-error.ts'

export type WalletBalances = { eth: bigint; coin: bigint; nfts: bigint }

/** ETH, service-token and portrait-NFT balances of one wallet, in one eth_call. */
export async function readWalletBalances(chain: Chain, wallet: `0x${string}`): Promise<WalletBalances> {
  try {
    const [eth, coin, nfts] = await chain.client.multicall({
      allowFailure: false,
      contracts: [
        { address: chain.contracts.multicall3, abi: multicall3Abi, functionName: 'getEthBalance', args: [wallet] },
        { address: chain.contracts.token, abi: erc20Abi, functionName: 'balanceOf', args: [wallet] },
        // ERC-721 balanceOf has the ERC-20 signature and selector.
        { address: chain.contracts.nft, abi: erc20Abi, functionName: 'balanceOf', args: [wallet] },
      ],
    })
    return { eth, coin, nfts }
  } catch (cause) {
    throw rpcFailed('reading wallet balances', cause)
  }
}
