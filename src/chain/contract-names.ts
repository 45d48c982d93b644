/**
 * Every contract the service knows by name. The devnet deploys each of these (the DeFi ones
 * in src/devnet/deploy-defi.ts), production reads their addresses from configuration (where
 * the optional ones may be absent: MegaETH mainnet has no recorded address for them), and
 * `/.well-known/service-protocol.json` lists them under these keys.
 */
export const coreContractNames = [
  'token', // service token (MEGACHAD), 18 decimals
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
  'quoterV2',
  'swapRouter',
  'pool', // WETH / service-token pool
] as const

export const defiContractNames = [
  'moggerStaking',
  'jesterStaking',
  'pair', // MC/MG constant-product pair
  'governance',
  'vetoCouncil',
  'ranking', // weekly burner ranking (Framemogger)
  'emissionController',
  'circuitBreaker',
] as const

/**
 * Contracts a deployment may lack: the DeFi ones, MG (the second token) and the Kumbaya
 * contracts the service only lists (no recorded MegaETH mainnet address). An operation that
 * needs one declares it (`requires`) and answers 503 NOT_DEPLOYED where it is absent.
 */
export const optionalContractNames = ['secondToken', 'uniswapV3Factory', 'positionManager', ...defiContractNames] as const

export type CoreContractName = (typeof coreContractNames)[number]
export type DefiContractName = (typeof defiContractNames)[number]
export type OptionalContractName = (typeof optionalContractNames)[number]
export type ContractName = CoreContractName | OptionalContractName
export type ContractAddresses = Record<CoreContractName, `0x${string}`> &
  Partial<Record<OptionalContractName, `0x${string}`>>

/** The optional contracts a deployment lacks, in the order of optionalContractNames. */
export function missingContracts(contracts: ContractAddresses): OptionalContractName[] {
  return optionalContractNames.filter((name) => !contracts[name])
}

/** Every contract with its address: what the devnet deploys. */
export type AllContractAddresses = Record<ContractName, `0x${string}`>
