import type { Context } from '../../context.ts'
import { looksmaxxRequirements } from '../../pipeline/submit-portrait.ts'
import { BURN_ADDRESS, BURN_HALF_WEI, BURN_TOTAL_WEI } from '../../chain/constants.ts'
import { respond } from '../define.ts'

/** The 402 answer of the looksmaxx endpoint: how to pay and what to burn. */
export function paymentRequiredBody(ctx: Context, error?: string) {
  const requirements = looksmaxxRequirements(ctx)
  return {
    x402Version: 1 as const,
    ...(error ? { error } : {}),
    accepts: [requirements],
    burnRequirements: {
      token: ctx.chain.contracts.token,
      totalAmount: BURN_TOTAL_WEI.toString(),
      burnAddress: BURN_ADDRESS,
      burnAmount: BURN_HALF_WEI.toString(),
      trenFundWallet: ctx.chain.fundWallet,
      trenFundAmount: BURN_HALF_WEI.toString(),
      description: 'Burn 225,000 tokens from one wallet: 112,500 to the dead address and 112,500 to the fund wallet.',
    },
    instructions: {
      step1: `Transfer 112,500 tokens (${BURN_HALF_WEI} wei) of ${ctx.chain.contracts.token} to ${BURN_ADDRESS}.`,
      step2: `Transfer 112,500 tokens (${BURN_HALF_WEI} wei) to the fund wallet ${ctx.chain.fundWallet} from the same wallet.`,
      step3: `Approve the USDm forwarder ${ctx.chain.contracts.usdmForwarder} on USDm once, then sign an EIP-3009 TransferWithAuthorization of exactly 1 USDm to ${ctx.chain.facilitator} (domain "USDm Forwarder", version "1", chain 4326).`,
      step4: 'POST /api/x402/looksmaxx with burnTxHash, devTxHash, burnerAddress, the base64 portrait and the payment (paymentPayload field or X-PAYMENT header).',
    },
  }
}

export function paymentRequired(ctx: Context, error?: string) {
  return respond(402, paymentRequiredBody(ctx, error), { 'X-Payment-Required': 'true', 'X-402-Version': '1' })
}
