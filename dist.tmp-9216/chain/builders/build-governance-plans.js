import { isAddress, isHex } from 'viem';
import { governanceAbi, proposalStates, voteSupport } from "../abis/governance.js";
import { vetoCouncilAbi } from "../abis/veto-council.js";
import { planStep, refuse } from "./plan.js";
export const stateName = (state) => proposalStates[state] ?? 'Pending';
/**
 * propose(targets, values, calldatas, description). Refused when the arrays are empty or of
 * different lengths, an address or calldata is malformed, the description is empty, or (when
 * known) the proposer is not one of the ranking's top 3 of this or last week.
 */
export function buildProposePlan(input) {
    const { targets, values, calldatas } = input;
    if (targets.length === 0 || targets.length !== values.length || targets.length !== calldatas.length) {
        return refuse('invalid_proposal', 'targets, values and calldatas must be non-empty and of equal length.');
    }
    const badTarget = targets.find((t) => !isAddress(t, { strict: false }));
    if (badTarget !== undefined)
        return refuse('invalid_proposal', `${badTarget} is not an address.`);
    const badData = calldatas.find((d) => !isHex(d, { strict: true }) || d.length % 2 !== 0);
    if (badData !== undefined)
        return refuse('invalid_proposal', `${badData} is not hex calldata.`);
    if (values.some((v) => v < 0n))
        return refuse('invalid_proposal', 'values must be non-negative wei amounts.');
    if (input.description.trim() === '')
        return refuse('invalid_proposal', 'The description must not be empty.');
    if (input.canPropose === false)
        return refuse('not_top_burner', "Only the ranking's top 3 burners of this or last week may propose.");
    return {
        ok: true,
        plan: [planStep({ to: input.governance, abi: governanceAbi, functionName: 'propose', args: [targets, values, calldatas, input.description] })],
    };
}
/** castVote(id, support) with support 0 against, 1 for, 2 abstain; refused unless the proposal is Active (when the state is known). */
export function buildVotePlan(input) {
    if (input.state !== undefined && stateName(input.state) !== 'Active') {
        return refuse('wrong_state', `Proposal ${input.proposalId} is ${stateName(input.state)}; votes are cast while it is Active.`);
    }
    return { ok: true, plan: [planStep({ to: input.governance, abi: governanceAbi, functionName: 'castVote', args: [input.proposalId, voteSupport[input.support]] })] };
}
/** queue(id): only for a Succeeded proposal. */
export function buildQueuePlan(input) {
    if (stateName(input.state) !== 'Succeeded')
        return refuse('wrong_state', `Proposal ${input.proposalId} is ${stateName(input.state)}; only a Succeeded proposal can be queued.`);
    return { ok: true, plan: [planStep({ to: input.governance, abi: governanceAbi, functionName: 'queue', args: [input.proposalId] })] };
}
/**
 * execute(id): only for a Queued proposal whose timelock has passed (eta ≤ now, when given);
 * the value is the sum of the actions' values (execute is payable).
 */
export function buildExecutePlan(input) {
    if (stateName(input.state) !== 'Queued')
        return refuse('wrong_state', `Proposal ${input.proposalId} is ${stateName(input.state)}; only a Queued proposal can be executed.`);
    if (input.eta !== undefined && input.nowSeconds !== undefined && input.nowSeconds < input.eta) {
        return refuse('timelock_pending', `Proposal ${input.proposalId} can be executed from ${new Date(Number(input.eta) * 1000).toISOString()}.`);
    }
    const value = (input.values ?? []).reduce((sum, v) => sum + v, 0n);
    return { ok: true, plan: [planStep({ to: input.governance, abi: governanceAbi, functionName: 'execute', args: [input.proposalId], value })] };
}
/**
 * castVetoVote(id, support) on the council, preceded by startVetoVote(id) when no window is
 * open yet (startTime 0; the proposal must then be Queued). Refused once the 2-day window has
 * closed.
 */
export function buildVetoPlan(input) {
    const cast = planStep({ to: input.vetoCouncil, abi: vetoCouncilAbi, functionName: 'castVetoVote', args: [input.proposalId, input.support] });
    if (input.vetoStartTime === 0n) {
        if (stateName(input.state) !== 'Queued')
            return refuse('wrong_state', `Proposal ${input.proposalId} is ${stateName(input.state)}; a veto vote opens only on a Queued proposal.`);
        return { ok: true, plan: [planStep({ to: input.vetoCouncil, abi: vetoCouncilAbi, functionName: 'startVetoVote', args: [input.proposalId] }), cast] };
    }
    if (input.nowSeconds > input.vetoEndTime)
        return refuse('veto_window_closed', `The veto window of proposal ${input.proposalId} closed at ${new Date(Number(input.vetoEndTime) * 1000).toISOString()}.`);
    return { ok: true, plan: [cast] };
}
//# sourceMappingURL=build-governance-plans.js.map