import { encodeFunctionData } from 'viem';
import { referralAbi } from "../abis/economy.js";
/** The referral contract's registerAgent() as unsigned transaction instructions, sent by the agent itself. */
export function buildRegisterAgent(args) {
    return { to: args.referral, data: encodeFunctionData({ abi: referralAbi, functionName: 'registerAgent' }), chainId: args.chainId, value: '0' };
}
//# sourceMappingURL=build-register-agent.js.map