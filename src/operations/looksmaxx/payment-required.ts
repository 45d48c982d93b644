import { looksmaxxOffers, type PortraitContext } from '../../pipeline/submit-portrait.ts'
import { BURN_ADDRESS, BURN_HALF_WEI, BURN_TOTAL_WEI, PERMIT2_ADDRESS, X402_EXACT_PERMIT2_PROXY } from '../../chain/constants.ts'
import { respond, type Ports } from '../define.ts'
import { zeroAddress } from 'viem'
import { buildPaymentRequiredV2, encodeX402Header } from '../../x402/payment-required-v2.ts'
import { redeemBurnDomain, redeemBurnTypes } from '../../chain/verify/burner-authorization.ts'

/** The 402 answer of the looksmaxx endpoint: how to pay and what to burn. */
export function paymentRequiredBody(ctx: Pick<PortraitContext, 'chain' | 'baseUrl'>, error?: string) {
  return {
    x402Version: 1 as const,
    ...(error ? { error } : {}),
    accepts: looksmaxxOffers(ctx),
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
      step3: `Pay exactly 1 USDm to ${ctx.chain.facilitator}, either way accepts lists: (a) approve the USDm forwarder ${ctx.chain.contracts.usdmForwarder} on USDm once, then sign an EIP-3009 TransferWithAuthorization (domain "USDm Forwarder", version "1", chain 4326); or (b) approve Permit2 ${PERMIT2_ADDRESS} on USDm ${ctx.chain.contracts.usdm} once (or send an EIP-2612 permit of it with the payment, x402 v2), then sign a Permit2 PermitWitnessTransferFrom with spender ${X402_EXACT_PERMIT2_PROXY} and witness {to, validAfter} (what @x402/evm signs for assetTransferMethod "permit2").`,
      step4: 'POST /api/x402/looksmaxx with burnTxHash, devTxHash, burnerAddress, the base64 portrait and the payment (paymentPayload field or X-PAYMENT header). Sign the payment with the burner wallet: only the burner may redeem its burns (a different payer needs burnerSignature, see burnerProof).',
    },
    burnerProof: burnerProof(ctx),
  }
}

/** The RedeemBurn a burner signs to let someone else pay, or to redeem on /api/generate. */
export function burnerProof(ctx: Ports<'chain'>) {
  return {
    description:
      'Only the burner may redeem its burns. On POST /api/x402/looksmaxx a payment signed by burnerAddress is the proof; nothing else is needed. Otherwise (a payer other than the burner, or POST /api/generate) the burner signs this EIP-712 message and the request carries it as burnerSignature with burnerDeadline. imageHash is keccak256 of the decoded image bytes; payer is the x402 payer, or the zero address on /api/generate.',
    domain: redeemBurnDomain(ctx.chain.contracts.nft),
    types: { RedeemBurn: [...redeemBurnTypes.RedeemBurn] },
    primaryType: 'RedeemBurn' as const,
    message: {
      burner: '<burnerAddress>',
      burnTxHash: '<burnTxHash>',
      devTxHash: '<devTxHash>',
      imageHash: '<keccak256 of the decoded image bytes>',
      payer: `<x402 payer address, or ${zeroAddress} on /api/generate>`,
      deadline: '<unix seconds, the burnerDeadline field>',
    },
  }
}

/**
 * The 402 in both x402 versions at once: the spec's v1 body (with its X-Payment-Required and
 * X-402-Version headers) and the v2 PaymentRequired in PAYMENT-REQUIRED. v2 clients read the
 * header first, v1 clients the body.
 */
export function paymentRequired(ctx: Pick<PortraitContext, 'chain' | 'baseUrl'>, error?: string) {
  return respond(402, paymentRequiredBody(ctx, error), {
    'X-Payment-Required': 'true',
    'X-402-Version': '1',
    'PAYMENT-REQUIRED': encodeX402Header(buildPaymentRequiredV2(looksmaxxOffers(ctx), error)),
  })
}
