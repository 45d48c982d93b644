import { z } from 'zod'
import { erc20Abi, formatUnits, multicall3Abi } from 'viem'
import { defineOperation } from '../define.ts'
import { addressIn, addressOut, chainInfo } from '../schemas.ts'
import { rpcFailed } from '../../chain/upstream-error.ts'

export const getPortalTokens = defineOperation({
  id: 'get_portal_tokens',
  limit: 'expensive',
  // HTTP only: get_wallet and get_identity give the balances.
  mcp: { tool: 'get_portal', as: 'tokens' },
  method: 'GET',
  path: '/api/portal/tokens',
  summary: 'Balances of a wallet in every token the service knows (ETH, MEGACHAD, MG, WETH, USDm)',
  tags: ['read'],
  input: z.object({ address: addressIn('Wallet') }),
  output: z.object({
    address: addressOut,
    chain: chainInfo,
    nativeBalance: z.object({ symbol: z.string(), balance: z.string(), balanceRaw: z.string() }),
    tokens: z.array(z.object({ address: addressOut, symbol: z.string(), name: z.string(), decimals: z.number().int(), balance: z.string(), balanceRaw: z.string(), hasBalance: z.boolean() })),
  }),
  errors: ['INVALID_ADDRESS', 'UPSTREAM_FAILED'],
  cacheSeconds: 5,
  dependsOn: ['token'],
  uses: ['chain'],
  async handler(ctx, { address }) {
    const c = ctx.chain.contracts
    // MG is listed where it is deployed (MegaETH mainnet records no address for it).
    const tokens = [
      { address: c.token, symbol: 'MEGACHAD', name: 'Mega Chad' },
      ...(c.secondToken ? [{ address: c.secondToken, symbol: 'MEGAGOONER', name: 'Mega Gooner' }] : []),
      { address: c.weth, symbol: 'WETH', name: 'Wrapped Ether' },
      { address: c.usdm, symbol: 'USDm', name: 'MegaUSD' },
    ]
    let results
    try {
      const calls = [
        { address: c.multicall3, abi: multicall3Abi, functionName: 'getEthBalance', args: [address] },
        ...tokens.map((t) => ({ address: t.address, abi: erc20Abi, functionName: 'balanceOf', args: [address] })),
      ]
      results = await ctx.chain.client.multicall({ allowFailure: false, contracts: calls as never })
    } catch (cause) {
      throw rpcFailed('reading token balances', cause)
    }
    const [eth, ...balances] = results as bigint[]
    return {
      address,
      chain: ctx.chain.info,
      nativeBalance: { symbol: 'ETH', balance: formatUnits(eth!, 18), balanceRaw: eth!.toString() },
      tokens: tokens.map((t, i) => ({ ...t, decimals: 18, balance: formatUnits(balances[i]!, 18), balanceRaw: balances[i]!.toString(), hasBalance: balances[i]! > 0n })),
    }
  },
})
