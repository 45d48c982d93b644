import { AppError } from '../errors/app-error.ts'
import { contractCatalog } from './contract-catalog.ts'
import type { ContractAddresses, OptionalContractName } from './contract-names.ts'

/** The variable that supplies a contract the deployment lacks (CONTRACTS_FILE's `contracts` does too). */
export const CONTRACT_VARIABLE = 'CONTRACT_ADDRESSES'

/** "the MC/MG pair (pair)", for messages. */
export const contractLabel = (name: OptionalContractName) => `${contractCatalog[name].label} (${name})`

/**
 * The 503 of an operation whose contracts this deployment lacks (MegaETH mainnet records no
 * address for the DeFi side): names each contract and the variable that supplies it.
 */
export function notDeployed(names: readonly OptionalContractName[]): AppError {
  const list = names.map(contractLabel).join(', ')
  const example = names.map((name) => `${name}=0x…`).join(',')
  return new AppError(
    'NOT_DEPLOYED',
    `Not deployed on this network: ${list}. The operator supplies ${names.length === 1 ? 'its address' : 'their addresses'} with ${CONTRACT_VARIABLE}=${example} (or contracts.${names[0]} in CONTRACTS_FILE).`,
    { details: { contracts: [...names], variable: CONTRACT_VARIABLE } },
  )
}

/** The contracts an operation requires that this deployment lacks (none: it can answer here). */
export function absentFor(op: { requires?: readonly OptionalContractName[] }, contracts: ContractAddresses): OptionalContractName[] {
  return (op.requires ?? []).filter((name) => !contracts[name])
}
