import { encodeFunctionData, erc20Abi, maxUint256 } from 'viem';
/** An unlimited ERC-20 approval as unsigned transaction instructions. */
export function buildApprove(args) {
    const amount = args.amount ?? maxUint256;
    return {
        to: args.token,
        value: '0',
        data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [args.spender, amount] }),
        chainId: args.chainId,
        functionName: 'approve',
        args: [args.spender, amount.toString()],
    };
}
//# sourceMappingURL=build-approve.js.map