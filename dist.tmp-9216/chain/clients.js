import { createPublicClient, defineChain, http } from 'viem';
import { CHAIN_ID, CHAIN_NAME } from "./constants.js";
export function createViemChain(rpcUrl, explorerUrl, multicall3) {
    return defineChain({
        id: CHAIN_ID,
        name: CHAIN_NAME,
        nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
        rpcUrls: { default: { http: [rpcUrl] } },
        blockExplorers: { default: { name: 'MegaExplorer', url: explorerUrl } },
        contracts: { multicall3: { address: multicall3 } },
    });
}
export function createChain(options) {
    let requests = 0;
    let errors = 0;
    const viemChain = createViemChain(options.rpcUrl, options.explorerUrl, options.contracts.multicall3);
    const client = createPublicClient({
        chain: viemChain,
        transport: http(options.rpcUrl, {
            timeout: 10_000,
            retryCount: 1,
            onFetchRequest: () => {
                requests++;
            },
            fetchFn: async (input, init) => {
                try {
                    const response = await fetch(input, init);
                    if (!response.ok)
                        errors++;
                    return response;
                }
                catch (error) {
                    errors++;
                    throw error;
                }
            },
        }),
    });
    return {
        client,
        viemChain,
        info: { name: CHAIN_NAME, chainId: CHAIN_ID, rpc: options.publicRpcUrl },
        explorerUrl: options.explorerUrl.replace(/\/$/, ''),
        contracts: options.contracts,
        fundWallet: options.fundWallet,
        facilitator: options.facilitator,
        agentId: options.agentId,
        rpcRequestCount: () => requests,
        rpcErrorCount: () => errors,
    };
}
//# sourceMappingURL=clients.js.map