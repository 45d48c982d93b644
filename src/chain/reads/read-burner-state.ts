import { erc20Abi } from 'viem'
import type { Chain } from '../clients.ts'
import { relayerAbi } from '../abis/economy.ts'
import { rpcFailed } from '../upstream-error.ts'

/** What a gasless burn needs of a burner, in one eth_call: its allowance to the relayer, its relayer nonce, its token balance. */
export async function readBurnerState(chain: Chain, burner: `0x${string}`): Promise<{ allowance: bigint; nonce: bigint; balance: bigint }> {
  const { token, relayer } = chain.contracts
  try {
    const [allowance, nonce, balance] = await chain.client.multicall({
      allowFailure: false,
      contracts: [
        { address: token, abi: erc20Abi, functionName: 'allowance', args: [burner, relayer] },
        { address: relayer, abi: relayerAbi, functionName: 'nonces', args: [burner] },
        { address: token, abi: erc20Abi, functionName: 'balanceOf', args: [burner] },
      ],
    })
    return { allowance, nonce, balance }
  } catch (cause) {
    throw rpcFailed('reading the burner state', cause)
  }
}
