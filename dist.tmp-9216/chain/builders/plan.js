import { encodeFunctionData } from 'viem';
export const refuse = (reason, message) => ({ ok: false, reason, message });
function jsonArg(value) {
    if (typeof value === 'bigint')
        return value.toString();
    if (Array.isArray(value))
        return value.map(jsonArg);
    return value;
}
/** Encodes one call as a plan step. */
export function planStep(call) {
    const args = call.args ?? [];
    return {
        to: call.to,
        value: (call.value ?? 0n).toString(),
        data: encodeFunctionData({ abi: call.abi, functionName: call.functionName, args }),
        functionName: call.functionName,
        args: args.map(jsonArg),
    };
}
//# sourceMappingURL=plan.js.map