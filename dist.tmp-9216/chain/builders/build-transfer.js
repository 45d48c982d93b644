import { encodeFunctionData, erc20Abi } from 'viem';
/** An ERC-20 transfer as unsigned transaction instructions. */
export function buildTokenTransfer(args) {
    return {
        to: args.token,
        value: '0',
        data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [args.to, args.amount] }),
        chainId: args.chainId,
        functionName: 'transfer',
        args: [args.to, args.amount.toString()],
    };
}
//# sourceMappingURL=build-transfer.js.map