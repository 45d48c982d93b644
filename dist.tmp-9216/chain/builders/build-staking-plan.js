import { erc20Abi } from 'viem';
import { moggerStakingAbi } from "../abis/mogger-staking.js";
import { jesterStakingAbi } from "../abis/jester-staking.js";
import { planStep, refuse } from "./plan.js";
/**
 * stake: approve (exactly the amount, only when the allowance is short or unknown), then
 * stake; unstake: one call; claim: claimRewards (the jester venue per pool).
 */
export function buildStakingPlan(input) {
    const pid = input.pid ?? 0n;
    const call = (functionName, amount) => input.venue === 'mogger'
        ? planStep({ to: input.staking, abi: moggerStakingAbi, functionName, args: amount === undefined ? [] : [amount] })
        : planStep({ to: input.staking, abi: jesterStakingAbi, functionName, args: amount === undefined ? [pid] : [pid, amount] });
    // With the wallet known: a claim of nothing reverts ("No rewards"), so it is not planned.
    if (input.action === 'claim')
        return input.earned === 0n ? refuse('nothing_to_claim', 'The wallet has no rewards to claim on this venue yet.') : { ok: true, plan: [call('claimRewards')] };
    const amount = input.amount;
    if (amount === undefined || amount <= 0n)
        return refuse('invalid_amount', `${input.action} needs an amount above zero.`);
    if (input.action === 'unstake') {
        if (input.staked !== undefined && amount > input.staked)
            return refuse('insufficient_stake', `The wallet has ${input.staked} staked, less than ${amount}.`);
        return { ok: true, plan: [call('unstake', amount)] };
    }
    if (input.paused)
        return refuse('paused', 'The protocol is paused (circuit breaker): staking refuses new stakes until it is unpaused (unstake and claim still work); GET /api/defi/safety says when.');
    if (input.nftCount === 0n)
        return refuse('nft_required', 'Staking needs at least one looksmaxx NFT (no NFT: no staking and no rewards).');
    const plan = [];
    if (input.allowance === undefined || input.allowance < amount) {
        plan.push(planStep({ to: input.stakeToken, abi: erc20Abi, functionName: 'approve', args: [input.staking, amount] }));
    }
    plan.push(call('stake', amount));
    return { ok: true, plan };
}
//# sourceMappingURL=build-staking-plan.js.map