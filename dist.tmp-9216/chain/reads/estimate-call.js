/**
 * The gas a call would use if sent now from `from`, or undefined when it would revert (or the
 * node could not say): a simulation of the whole call on the chain's current state, contract
 * checks included.
 */
export async function estimateCall(chain, call) {
    return chain.client.estimateGas({ account: call.from, to: call.to, data: call.data }).catch(() => undefined);
}
//# sourceMappingURL=estimate-call.js.map