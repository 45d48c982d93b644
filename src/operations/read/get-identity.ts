import { z } from 'zod'
import { erc20Abi, formatEther, formatUnits, getAddress, isAddress, multicall3Abi, zeroAddress, type ContractFunctionParameters } from 'viem'
import { defineOperation } from '../define.ts'
import { addressOut, isoTimestamp } from '../schemas.ts'
import { AppError } from '../../errors/app-error.ts'
import { namesAbi } from '../../chain/abis/registries.ts'
import { decodeProfiles, profileCalls } from '../../chain/reads/read-profiles.ts'
import { rpcFailed } from '../../chain/upstream-error.ts'
import { listPortraitsOf } from '../../store/portraits.ts'
import { listTokenIdsOwnedBy } from '../../store/nft-transfers.ts'

/** Tiers by portraits burned for, as the reference names them. */
export function tierFor(burns: number): { level: number; name: string; nextAt: number | null } {
  const tiers = [
    [25, 5, 'Gigachad'],
    [10, 4, 'Chad'],
    [3, 3, 'Bonesmasher'],
    [1, 2, 'Mewer'],
    [0, 1, 'Normie'],
  ] as const
  const index = tiers.findIndex(([min]) => burns >= min)
  const [, level, name] = tiers[index]!
  return { level, name, nextAt: index > 0 ? tiers[index - 1]![0] : null }
}

export const getIdentity = defineOperation({
  id: 'get_identity',
  limit: 'expensive',
  method: 'GET',
  path: '/api/identity/{addressOrName}',
  summary: 'Unified profile of an address or .mega name: balances, portraits, burns, reputation, tier',
  tags: ['read'],
  input: z.object({
    addressOrName: z
      .string()
      .regex(/^0x[a-fA-F0-9]{40}$|^[a-zA-Z0-9_-]{1,64}(\.mega)?$/, { error: 'must be an address or a name like alice.mega' })
      .refine((value) => !/^0x0{40}$/.test(value), { error: 'must not be the zero address: nobody holds or signs for it' })
      .describe('0x address or .mega name'),
  }),
  output: z.object({
    address: addressOut,
    name: z.string().nullable(),
    displayName: z.string(),
    profile: z.object({ avatar: z.string(), description: z.string(), twitter: z.string(), url: z.string() }).nullable(),
    balances: z.object({ eth: z.string(), coin: z.number() }),
    nfts: z.object({
      count: z.number().int().describe('NFTs held, read on chain (as /api/wallet counts them)'),
      tokenIds: z.array(z.string()).describe('Their ids as indexed: NFTs minted before the indexer\'s first block (the devnet seed\'s) are counted but not listed'),
    }),
    burns: z.object({
      total: z.number().int(),
      totalBurned: z.number(),
      history: z.array(z.object({ txHash: z.string(), tokenId: z.string(), ipfsUrl: z.string(), timestamp: isoTimestamp })),
    }),
    reputation: z.object({ score: z.number().nullable(), count: z.number().int() }),
    tier: z.object({ level: z.number().int(), name: z.string(), nextAt: z.number().int().nullable() }),
  }),
  errors: ['NOT_FOUND', 'UPSTREAM_FAILED'],
  // One question whatever the spelling: an address in any case; a name with or without .mega
  // (names are resolved as written: the registry may hold labels that differ only in case).
  canonicalInput: ({ addressOrName }) => ({ addressOrName: isAddress(addressOrName, { strict: false }) ? addressOrName.toLowerCase() : addressOrName.replace(/\.mega$/, '') }),
  cacheSeconds: 10,
  staleSeconds: 20,
  dependsOn: ['token', 'portraits', 'profiles'],
  uses: ['chain', 'db', 'pipeline'],
  async handler(ctx, { addressOrName }) {
    let address: `0x${string}`
    if (isAddress(addressOrName, { strict: false })) {
      address = getAddress(addressOrName)
    } else {
      const label = addressOrName.replace(/\.mega$/, '')
      let resolved: `0x${string}`
      try {
        resolved = await ctx.chain.client.readContract({ address: ctx.chain.contracts.names, abi: namesAbi, functionName: 'getAddress', args: [label] })
      } catch (cause) {
        throw rpcFailed('resolving the name', cause)
      }
      if (resolved === zeroAddress) throw new AppError('NOT_FOUND', `No address holds the name ${label}.mega.`)
      address = getAddress(resolved)
    }
    // Balances, name, profile and reputation: one Multicall3 call, one round trip.
    const [reads, portraits, owned] = await Promise.all([
      ctx.chain.client
        .multicall({
          allowFailure: true,
          contracts: [
            { address: ctx.chain.contracts.multicall3, abi: multicall3Abi, functionName: 'getEthBalance', args: [address] },
            { address: ctx.chain.contracts.token, abi: erc20Abi, functionName: 'balanceOf', args: [address] },
            // The NFTs held, as the wallet read counts them (balanceOf has the same signature in ERC-721).
            { address: ctx.chain.contracts.nft, abi: erc20Abi, functionName: 'balanceOf', args: [address] },
            ...profileCalls(ctx.chain, [address]),
          ] as ContractFunctionParameters[],
        })
        .catch((cause) => {
          throw rpcFailed('reading balances and profile', cause)
        }),
      listPortraitsOf(ctx.db, address),
      listTokenIdsOwnedBy(ctx.db, address),
    ])
    const [eth, coin, nftBalance] = reads
    if (eth?.status !== 'success' || coin?.status !== 'success' || nftBalance?.status !== 'success') throw rpcFailed('reading balances', eth?.error ?? coin?.error ?? nftBalance?.error)
    const balances = [eth.result as bigint, coin.result as bigint] as const
    const profiles = decodeProfiles(ctx.chain, [address], reads.slice(3))
    const profile = profiles.get(address.toLowerCase())
    const tokenIds = owned
    return {
      address,
      name: profile?.name ?? null,
      displayName: profile?.name ?? `${address.slice(0, 6)}...${address.slice(-4)}`,
      profile: profile?.profile ?? null,
      balances: { eth: formatEther(balances[0]), coin: Number(formatUnits(balances[1], 18)) },
      nfts: { count: Number(nftBalance.result as bigint), tokenIds },
      burns: {
        total: portraits.length,
        totalBurned: portraits.reduce((sum, p) => sum + Number(formatUnits(BigInt(p.burnAmountWei), 18)), 0),
        history: portraits.map((p) => ({ txHash: p.burnTxHash, tokenId: p.tokenId, ipfsUrl: ctx.pipeline.deps.ipfs.gatewayUrl(p.imageCid), timestamp: p.mintedAt.toISOString() })),
      },
      reputation: profile?.reputation ?? { score: null, count: 0 },
      tier: tierFor(portraits.length),
    }
  },
})
