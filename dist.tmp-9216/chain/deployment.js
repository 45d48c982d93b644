import { readFile } from 'node:fs/promises';
import { getAddress } from 'viem';
import { z } from 'zod';
import { coreContractNames, defiContractNames } from "./contract-names.js";
import { AppError } from "../errors/app-error.js";
const addressField = z.string().regex(/^0x[0-9a-fA-F]{40}$/).transform((a) => getAddress(a));
const contractsSchema = z.object({
    ...Object.fromEntries(coreContractNames.map((name) => [name, addressField])),
    ...Object.fromEntries(defiContractNames.map((name) => [name, addressField.optional()])),
});
const devnetInfoSchema = z.object({
    bootId: z.string(),
    chainId: z.number(),
    deployBlock: z.number(),
    agentId: z.string().optional(),
    contracts: contractsSchema,
    accounts: z.object({ fundWallet: addressField, facilitator: addressField }).passthrough(),
});
/** Reads the deployment from the embedded devnet's `devnet_info` RPC method. */
export async function readDevnetDeployment(rpcUrl) {
    let response;
    try {
        response = await fetch(rpcUrl, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'devnet_info', params: [] }),
            signal: AbortSignal.timeout(5_000),
        });
    }
    catch (cause) {
        throw new AppError('UPSTREAM_FAILED', 'The devnet RPC did not answer.', { cause, retryable: true });
    }
    const body = (await response.json());
    if (!body.result) {
        throw new AppError('UPSTREAM_FAILED', 'The RPC has no devnet_info method: not the embedded devnet.', {
            cause: body.error,
        });
    }
    const info = devnetInfoSchema.parse(body.result);
    return {
        contracts: info.contracts,
        fundWallet: info.accounts.fundWallet,
        facilitator: info.accounts.facilitator,
        agentId: info.agentId,
        devnet: { bootId: info.bootId, deployBlock: info.deployBlock, accounts: info.accounts },
    };
}
const fileSchema = z.object({
    contracts: contractsSchema,
    fundWallet: addressField,
    facilitator: addressField,
    agentId: z.union([z.string(), z.number()]).transform(String).optional(),
});
/**
 * Reads a production deployment file: `{ contracts: {name: address}, fundWallet, facilitator }`.
 * FUND_WALLET and FACILITATOR_ADDRESS, when set, override the file.
 */
export async function readDeploymentFile(path, overrides = {}) {
    const raw = JSON.parse(await readFile(path, 'utf8'));
    return fileSchema.parse({
        ...raw,
        ...(overrides.fundWallet ? { fundWallet: overrides.fundWallet } : {}),
        ...(overrides.facilitator ? { facilitator: overrides.facilitator } : {}),
    });
}
//# sourceMappingURL=deployment.js.map