import { AppError } from "../../errors/app-error.js";
/** The address of a DeFi contract, or an error naming the missing configuration. */
export function defiAddress(chain, name) {
    const address = chain.contracts[name];
    if (!address)
        throw new AppError('INTERNAL_ERROR', `The ${name} contract is not configured.`);
    return address;
}
/**
 * One multicall (one eth_call through Multicall3) over a list whose length depends on the
 * request; results come back untyped, in order, each a success or a failure.
 */
export async function multicallList(chain, calls) {
    return (await chain.client.multicall({ allowFailure: true, contracts: calls }));
}
/** The result of a call that must have succeeded. */
export function ok(result) {
    if (!result)
        throw new Error('missing multicall result');
    if (result.status !== 'success')
        throw result.error;
    return result.result;
}
//# sourceMappingURL=defi-contracts.js.map