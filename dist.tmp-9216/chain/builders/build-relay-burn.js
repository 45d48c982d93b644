import { encodeFunctionData, parseSignature } from 'viem';
import { relayerAbi } from "../abis/economy.js";
/** Calldata of the relayer's relayBurn for a burner's signed BurnRequest (the signature split into v, r, s). */
export function buildRelayBurn(args) {
    const { v, r, s } = parseSignature(args.signature);
    return encodeFunctionData({ abi: relayerAbi, functionName: 'relayBurn', args: [args.burner, args.deadline, Number(v), r, s] });
}
//# sourceMappingURL=build-relay-burn.js.map