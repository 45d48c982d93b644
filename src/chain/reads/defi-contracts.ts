import type { Chain } from '../clients.ts'
import type { OptionalContractName } from '../contract-names.ts'
import { notDeployed } from '../not-deployed.ts'

/**
 * The address of a contract a deployment may lack, or 503 NOT_DEPLOYED naming it. Operations
 * declare what they need (`requires`) and the runtime refuses them before this; this is the
 * backstop of a read that forgot.
 */
export function defiAddress(chain: Chain, name: OptionalContractName): `0x${string}` {
  const address = chain.contracts[name]
  if (!address) throw notDeployed([name])
  return address
}

export type Call = { address: `0x${string}`; abi: readonly unknown[]; functionName: string; args?: readonly unknown[] }
export type CallResult = { status: 'success'; result: unknown } | { status: 'failure'; error: Error }

/**
 * One multicall (one eth_call through Multicall3) over a list whose length depends on the
 * request; results come back untyped, in order, each a success or a failure.
 */
export async function multicallList(chain: Chain, calls: Call[]): Promise<CallResult[]> {
  return (await chain.client.multicall({ allowFailure: true, contracts: calls as never })) as CallResult[]
}

/** The result of a call that must have succeeded. */
export function ok<T>(result: CallResult | undefined): T {
  if (!result) throw new Error('missing multicall result')
  if (result.status !== 'success') throw result.error
  return result.result as T
}
