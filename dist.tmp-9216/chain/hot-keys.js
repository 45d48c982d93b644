import { privateKeyToAccount } from 'viem/accounts';
import { ConfigError } from "../config/load.js";
import { devnetAccount, roles } from "./devnet-accounts.js";
/** Which devnet account (DESIGN.md) stands in for each hot key; never used on a real chain. */
const DEVNET_ROLES = { minter: roles.deployer, relayer: roles.relayer, facilitator: roles.facilitator };
/**
 * The service's own signing keys. On the embedded devnet they default to its well-known
 * accounts; on a real chain each must be configured, or start-up stops naming it.
 */
export function resolveHotKeys(config, onDevnet) {
    const pick = (role, configured, variable) => {
        if (configured)
            return privateKeyToAccount(configured.reveal());
        if (onDevnet)
            return devnetAccount(DEVNET_ROLES[role]).account;
        throw new ConfigError(`${variable} is required when RPC_URL points at a real chain.`);
    };
    return {
        minter: pick('minter', config.MINTER_PRIVATE_KEY, 'MINTER_PRIVATE_KEY'),
        relayer: pick('relayer', config.RELAYER_PRIVATE_KEY, 'RELAYER_PRIVATE_KEY'),
        facilitator: config.FACILITATOR_URL && !config.FACILITATOR_PRIVATE_KEY && !onDevnet
            ? // An external facilitator pays its own gas; this key is then unused.
                devnetAccount(DEVNET_ROLES.facilitator).account
            : pick('facilitator', config.FACILITATOR_PRIVATE_KEY, 'FACILITATOR_PRIVATE_KEY'),
    };
}
//# sourceMappingURL=hot-keys.js.map