/**
 * Every contract the service knows by name. The devnet deploys each of these (the DeFi ones
 * in src/devnet/deploy-defi.ts), production reads their addresses from configuration (where
 * the DeFi ones may be absent), and
 * `/.well-known/service-protocol.json` lists them under these keys.
 */
export const coreContractNames = [
    'token', // service token (MEGACHAD), 18 decimals
    'secondToken', // MG (MEGAGOONER)
    'usdm', // USDm stablecoin, 18 decimals
    'usdmForwarder', // EIP-3009 forwarder: the x402 `asset`
    'nft', // looksmaxx portrait NFT
    'relayer', // gasless burn relayer
    'referral', // referral agents
    'identityRegistry', // ERC-8004 identity
    'reputationRegistry', // ERC-8004 reputation
    'names', // name service (".mega" names)
    'multicall3',
    'weth',
    'uniswapV3Factory',
    'positionManager',
    'quoterV2',
    'swapRouter',
    'pool', // WETH / service-token pool
];
export const defiContractNames = [
    'moggerStaking',
    'jesterStaking',
    'pair', // MC/MG constant-product pair
    'governance',
    'vetoCouncil',
    'ranking', // weekly burner ranking (Framemogger)
    'emissionController',
    'circuitBreaker',
];
//# sourceMappingURL=contract-names.js.map