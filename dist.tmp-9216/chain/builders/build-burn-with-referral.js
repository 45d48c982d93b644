import { encodeFunctionData } from 'viem';
import { referralAbi } from "../abis/economy.js";
/** Calldata of burnWithReferral(referrer): a burn through the referral contract that rewards `referrer`. */
export function buildBurnWithReferral(referrer) {
    return encodeFunctionData({ abi: referralAbi, functionName: 'burnWithReferral', args: [referrer] });
}
//# sourceMappingURL=build-burn-with-referral.js.map