import type { Chain } from '../clients.ts'
import { namesAbi, reputationRegistryAbi } from '../abis/registries.ts'
import { rpcFailed } from '../upstream-error.ts'

export type Profile = {
  name: string | null
  profile: { avatar: string; description: string; twitter: string; url: string } | null
  reputation: { score: number | null; count: number }
}

/** The calls that read name, profile and reputation of each address, for one Multicall3 batch. */
export function profileCalls(chain: Chain, addresses: `0x${string}`[]) {
  const agentId = chain.agentId
  return addresses.flatMap((address) => [
    { address: chain.contracts.names, abi: namesAbi, functionName: 'getName', args: [address] } as const,
    { address: chain.contracts.names, abi: namesAbi, functionName: 'getProfile', args: [address] } as const,
    ...(agentId !== undefined
      ? [{ address: chain.contracts.reputationRegistry, abi: reputationRegistryAbi, functionName: 'getSummary', args: [agentId, [address], '', ''] } as const]
      : []),
  ])
}

type CallResult = { status: 'success' | 'failure'; result?: unknown }

/** Decodes the results of `profileCalls` (same chain, same addresses, same order). */
export function decodeProfiles(chain: Chain, addresses: `0x${string}`[], results: readonly CallResult[]): Map<string, Profile> {
  const stride = chain.agentId !== undefined ? 3 : 2
  return new Map(
    addresses.map((address, i) => {
      const [name, profile, summary] = results.slice(i * stride, i * stride + stride)
      const nameValue = name?.status === 'success' && (name.result as string) ? (name.result as string) : null
      const p = profile?.status === 'success' ? (profile.result as readonly string[]) : undefined
      const hasProfile = p && p.some((field) => field)
      const s = summary?.status === 'success' ? (summary.result as readonly [bigint, bigint, number]) : undefined
      const count = s ? Number(s[0]) : 0
      return [
        address.toLowerCase(),
        {
          name: nameValue ? (nameValue.endsWith('.mega') ? nameValue : `${nameValue}.mega`) : null,
          profile: hasProfile ? { avatar: p[0]!, description: p[1]!, twitter: p[2]!, url: p[5]! } : null,
          reputation: { score: s && count > 0 ? Number(s[1]) / 10 ** s[2] : null, count },
        },
      ]
    }),
  )
}

/**
 * Name, profile and reputation of many addresses in one eth_call. Reputation is the feedback
 * each address gave the service's ERC-8004 agent (its summary value, as a number).
 */
export async function readProfiles(chain: Chain, addresses: `0x${string}`[]): Promise<Map<string, Profile>> {
  if (addresses.length === 0) return new Map()
  let results
  try {
    results = await chain.client.multicall({ allowFailure: true, contracts: profileCalls(chain, addresses) })
  } catch (cause) {
    throw rpcFailed('reading names and reputation', cause)
  }
  return decodeProfiles(chain, addresses, results)
}
