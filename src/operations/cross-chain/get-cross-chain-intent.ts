import { z } from 'zod'
import { parseEthAmount } from '../swap/parse-eth-amount.ts'
import { randomBytes } from 'node:crypto'
import { defineOperation } from '../define.ts'
import { walletIn } from '../schemas.ts'
import { AppError } from '../../errors/app-error.ts'
import { getLooksmaxxPlan } from '../looksmaxx/get-looksmaxx-plan.ts'
import { simulationOut, type SimulationJson } from '../plan-simulation.ts'

/** Chains one can bridge from, with the bridge that serves them (per the bridge info). */
export const SOURCE_CHAINS = [
  { id: 'ethereum', chainId: 1, bridge: 'MegaETH Bridge', url: 'https://bridge.megaeth.com', assets: ['ETH', 'USDC', 'USDT'], aliases: ['eth', 'mainnet', 'ethereum'] },
  { id: 'base', chainId: 8453, bridge: 'Rabbithole', url: 'https://rabbithole.megaeth.com/bridge', assets: ['ETH', 'USDC', 'USDT'], aliases: ['base'] },
  { id: 'arbitrum', chainId: 42161, bridge: 'Rabbithole', url: 'https://rabbithole.megaeth.com/bridge', assets: ['ETH', 'USDC', 'USDT'], aliases: ['arb', 'arbitrum'] },
  { id: 'optimism', chainId: 10, bridge: 'Rabbithole', url: 'https://rabbithole.megaeth.com/bridge', assets: ['ETH', 'USDC', 'USDT'], aliases: ['op', 'optimism'] },
  { id: 'polygon', chainId: 137, bridge: 'Rabbithole', url: 'https://rabbithole.megaeth.com/bridge', assets: ['USDC', 'USDT'], aliases: ['poly', 'matic', 'polygon'] },
  { id: 'bnb', chainId: 56, bridge: 'Rabbithole', url: 'https://rabbithole.megaeth.com/bridge', assets: ['USDC', 'USDT'], aliases: ['bsc', 'binance', 'bnb'] },
  { id: 'avalanche', chainId: 43114, bridge: 'Rabbithole', url: 'https://rabbithole.megaeth.com/bridge', assets: ['USDC', 'USDT'], aliases: ['avax', 'avalanche'] },
  { id: 'scroll', chainId: 534352, bridge: 'Rabbithole', url: 'https://rabbithole.megaeth.com/bridge', assets: ['ETH'], aliases: ['scroll'] },
  { id: 'zksync', chainId: 324, bridge: 'Rabbithole', url: 'https://rabbithole.megaeth.com/bridge', assets: ['ETH'], aliases: ['zksync', 'zksyncera'] },
  { id: 'linea', chainId: 59144, bridge: 'Rabbithole', url: 'https://rabbithole.megaeth.com/bridge', assets: ['ETH'], aliases: ['linea'] },
] as const

export function findSourceChain(value: string) {
  const key = value.trim().toLowerCase()
  return SOURCE_CHAINS.find((c) => (c.aliases as readonly string[]).includes(key) || String(c.chainId) === key)
}

export const getCrossChainIntent = defineOperation({
  id: 'get_cross_chain_intent',
  limit: 'expensive',
  method: 'GET',
  path: '/api/cross-chain/intent',
  summary: 'Plan to looksmaxx from another chain: the bridge step, then the local plan with ready transactions',
  tags: ['economy'],
  input: z.object({
    sourceChain: z.string().min(1).max(32).describe('Chain name, alias or chain ID (ethereum, base, arb, 8453, …)'),
    wallet: walletIn('Wallet that will burn on MegaETH'),
    amount: z.string().regex(/^\d+(\.\d+)?$/, { error: 'must be an ETH amount like 0.6' }).meta({ errorCode: 'INVALID_AMOUNT' }).optional().describe('ETH to bridge and swap'),
  }),
  output: z.object({
    intentId: z.string(),
    sourceChain: z.object({ id: z.string(), chainId: z.number().int() }),
    steps: z.array(z.object({ step: z.number().int(), action: z.string(), description: z.string(), url: z.string().optional(), transaction: z.unknown().optional(), postRequest: z.unknown().optional(), skip: z.boolean() })),
    destination: z.object({ chainId: z.number().int(), rpc: z.string() }),
    simulation: simulationOut.nullable().describe('The MegaETH transactions (swap, burn, fund) simulated from the wallet as it stands now, before the bridge; numbered as in steps'),
  }),
  errors: ['UNKNOWN_CHAIN', 'INVALID_ADDRESS', 'INVALID_AMOUNT', 'UPSTREAM_FAILED'],
  cacheControl: 'no-cache',
  // The ports of get_looksmaxx_plan (its handler is called with this ctx), and the clock.
  uses: ['chain', 'baseUrl', 'clock'],
  async handler(ctx, input, meta) {
    const source = findSourceChain(input.sourceChain)
    if (!source) {
      throw new AppError('UNKNOWN_CHAIN', `Cannot route from ${JSON.stringify(input.sourceChain)}. Supported: ${SOURCE_CHAINS.map((c) => c.id).join(', ')}.`, {
        details: { supported: SOURCE_CHAINS.map((c) => ({ id: c.id, chainId: c.chainId, aliases: c.aliases })) },
      })
    }
    // Checked here so that an error names this input (the plan calls it ethAmount).
    if (input.amount !== undefined) parseEthAmount(input.amount, 'amount')
    const plan = (await getLooksmaxxPlan.handler(ctx, { wallet: input.wallet, ethAmount: input.amount }, meta)) as {
      steps: Array<{ step: number; action: string; description: string; skip: boolean; transaction: unknown; postRequest: unknown }>
      simulation: SimulationJson | null
    }
    // The bridge comes first: every step of the local plan moves one place down.
    const simulation = plan.simulation && {
      ...plan.simulation,
      failedStep: plan.simulation.failedStep === null ? null : plan.simulation.failedStep + 1,
      reason: plan.simulation.reason?.replace(/^Step (\d+)/, (_, n: string) => `Step ${Number(n) + 1}`) ?? null,
      steps: plan.simulation.steps.map((s) => ({ ...s, step: s.step + 1 })),
    }
    const assets: readonly string[] = source.assets
    const bridgeAsset = assets.includes('ETH') ? 'ETH' : assets[0]
    return {
      intentId: `cc_${ctx.clock()}_${randomBytes(3).toString('hex')}`,
      sourceChain: { id: source.id, chainId: source.chainId },
      steps: [
        {
          step: 1,
          action: 'bridge',
          description: `Bridge ${input.amount ? `${input.amount} ` : ''}${bridgeAsset} from ${source.id} to MegaETH with ${source.bridge}${bridgeAsset === 'ETH' ? '' : ', then swap it to ETH'}, to ${input.wallet}.`,
          url: source.url,
          skip: false,
        },
        ...plan.steps.map((s) => ({ ...s, step: s.step + 1, transaction: s.transaction ?? undefined, postRequest: s.postRequest ?? undefined })),
      ],
      destination: { chainId: ctx.chain.info.chainId, rpc: ctx.chain.info.rpc },
      simulation,
    }
  },
})
