import { z } from 'zod'
import { formatEther, formatUnits } from 'viem'
import { defineOperation } from '../define.ts'
import { walletIn, addressOut, wei } from '../schemas.ts'
import { readWalletBalances } from '../../chain/reads/read-wallet-balances.ts'
import { BURN_TOTAL_TOKENS, BURN_TOTAL_WEI, TOKEN_DECIMALS, TOKEN_SYMBOL } from '../../chain/constants.ts'

/** Early access: 3 portraits give instant access; any tokens or one portrait open the referral path. */
const INSTANT_ACCESS_NFTS = 3n

export const getWallet = defineOperation({
  id: 'get_wallet',
  limit: 'expensive',
  method: 'GET',
  path: '/api/wallet',
  summary: 'Balances of a wallet and whether it can burn for a portrait',
  tags: ['wallet'],
  input: z.object({ address: walletIn('Wallet to inspect') }),
  output: z.object({
    address: addressOut,
    balances: z.object({
      eth: z.string(),
      ethWei: wei,
      coin: z.number(),
      coinWei: wei,
      looksmaxxedNFTs: z.number().int(),
    }),
    burnEligibility: z.object({
      canBurn: z.boolean(),
      burnRequirement: z.number().int(),
      tokensNeeded: z.number(),
      message: z.string(),
    }),
    earlyAccess: z.object({ instantAccess: z.boolean(), referralPath: z.boolean(), eligible: z.boolean() }),
  }),
  errors: ['INVALID_ADDRESS', 'UPSTREAM_FAILED'],
  cacheSeconds: 2,
  dependsOn: ['token', 'portraits'],
  uses: ['chain'],
  async handler(ctx, { address }) {
    const balances = await readWalletBalances(ctx.chain, address)
    const canBurn = balances.coin >= BURN_TOTAL_WEI
    const missing = canBurn ? 0n : BURN_TOTAL_WEI - balances.coin
    const tokensNeeded = Number(formatUnits(missing, TOKEN_DECIMALS))
    const referralPath = balances.coin > 0n || balances.nfts >= 1n
    return {
      address,
      balances: {
        eth: formatEther(balances.eth),
        ethWei: balances.eth.toString(),
        coin: Number(formatUnits(balances.coin, TOKEN_DECIMALS)),
        coinWei: balances.coin.toString(),
        looksmaxxedNFTs: Number(balances.nfts),
      },
      burnEligibility: {
        canBurn,
        burnRequirement: BURN_TOTAL_TOKENS,
        tokensNeeded,
        message: canBurn
          ? `Ready: the wallet holds at least ${BURN_TOTAL_TOKENS.toLocaleString('en-US')} ${TOKEN_SYMBOL}.`
          : `Needs ${tokensNeeded.toLocaleString('en-US')} more ${TOKEN_SYMBOL}; GET /api/x402/quote to buy with ETH.`,
      },
      earlyAccess: {
        instantAccess: balances.nfts >= INSTANT_ACCESS_NFTS,
        referralPath,
        eligible: referralPath,
      },
    }
  },
})
