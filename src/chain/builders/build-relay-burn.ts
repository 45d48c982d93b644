import { encodeFunctionData, parseSignature } from 'viem'
import { relayerAbi } from '../abis/economy.ts'

/** Calldata of the relayer's relayBurn for a burner's signed BurnRequest (the signature split into v, r, s). */
export function buildRelayBurn(args: { burner: `0x${string}`; deadline: bigint; signature: `0x${string}` }): `0x${string}` {
  const { v, r, s } = parseSignature(args.signature)
  return encodeFunctionData({ abi: relayerAbi, functionName: 'relayBurn', args: [args.burner, args.deadline, Number(v), r, s] })
}
