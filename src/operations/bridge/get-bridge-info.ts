import { z } from 'zod'
import { defineOperation } from '../define.ts'
import { addressOut, chainInfo } from '../schemas.ts'
import { TOKEN_SYMBOL } from '../../chain/constants.ts'

const bridge = z.object({
  name: z.string(),
  url: z.string(),
  from: z.array(z.string()),
  assets: z.array(z.string()),
  type: z.enum(['canonical', 'aggregator']),
  description: z.string(),
})

export const bridges: z.infer<typeof bridge>[] = [
  {
    name: 'MegaETH Bridge',
    url: 'https://bridge.megaeth.com',
    from: ['Ethereum'],
    assets: ['ETH'],
    type: 'canonical',
    description: 'The canonical bridge from Ethereum mainnet to MegaETH.',
  },
  {
    name: 'Rabbithole',
    url: 'https://rabbithole.megaeth.com/bridge',
    from: ['Ethereum', 'Base', 'Arbitrum', 'Optimism', 'Polygon', 'BNB Chain', 'Avalanche', 'Scroll', 'zkSync', 'Linea'],
    assets: ['ETH', 'USDC', 'USDT'],
    type: 'aggregator',
    description: 'Bridge aggregator with fast routes from the major chains.',
  },
]

const token = z.object({ address: addressOut, symbol: z.string(), decimals: z.number().int(), note: z.string().optional() })

export const getBridgeInfo = defineOperation({
  id: 'get_bridge_info',
  // HTTP only: get_cross_chain_intent plans the bridge step.
  method: 'GET',
  path: '/api/bridge',
  summary: 'How to bring ETH and USDm to the chain, and the token addresses there',
  tags: ['bridge'],
  input: z.object({}),
  output: z.object({
    chain: chainInfo.extend({ explorer: z.string() }),
    bridges: z.array(bridge),
    tokens: z.object({ megachad: token, weth: token, usdm: token }),
    flow: z.object({ step1: z.string(), step2: z.string(), step3: z.string(), step4: z.string() }),
  }),
  errors: [],
  cacheSeconds: 3600,
  staleSeconds: 3600,
  uses: ['chain'],
  async handler(ctx) {
    const { contracts } = ctx.chain
    return {
      chain: { ...ctx.chain.info, explorer: ctx.chain.explorerUrl },
      bridges,
      tokens: {
        megachad: {
          address: contracts.token,
          symbol: TOKEN_SYMBOL,
          decimals: 18,
          note: 'Not bridgeable: buy it on chain with ETH (GET /api/x402/quote).',
        },
        weth: { address: contracts.weth, symbol: 'WETH', decimals: 18 },
        usdm: {
          address: contracts.usdm,
          symbol: 'USDm',
          decimals: 18,
          note: `Pays the 1 USDm infrastructure fee through the forwarder ${contracts.usdmForwarder}.`,
        },
      },
      flow: {
        step1: 'Bridge ETH (and USDm or a stablecoin to swap into USDm) to MegaETH with one of the bridges.',
        step2: `Buy ${TOKEN_SYMBOL} with ETH: GET /api/x402/quote?ethAmount=<ETH> and send the exactInputSingle call.`,
        step3: 'Burn 225,000 tokens: 112,500 to the dead address and 112,500 to the fund wallet.',
        step4: 'Pay 1 USDm with x402 and POST /api/x402/looksmaxx with your portrait to receive the NFT.',
      },
    }
  },
})
