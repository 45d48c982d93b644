import { looksmaxxOffers, type PortraitContext } from '../../pipeline/submit-portrait.ts'
import { BURN_ADDRESS, BURN_HALF_WEI, BURN_TOTAL_WEI, PERMIT2_ADDRESS, X402_EXACT_PERMIT2_PROXY } from '../../chain/constants.ts'
import { respond, type Ports } from '../define.ts'
import { zeroAddress } from 'viem'
import { buildPaymentRequiredV2, encodeX402Header } from '../../x402/payment-required-v2.ts'
import { declareBazaar } from '../../x402/bazaar.ts'
import { OFFER_RECEIPT } from '../../receipts/x402-receipt.ts'
import { redeemBurnDomain, redeemBurnTypes } from '../../chain/verify/burner-authorization.ts'
import { jsonSchemaOf } from '../json-schema.ts'
import { MCP_PATH } from '../runtime/paths.ts'
import { submitLooksmaxxInput } from './input.ts'

/** What a 402 of the looksmaxx uses: the chain, the base URL and the key that signs its offers. */
export type PaymentRequiredContext = Pick<PortraitContext, 'chain' | 'baseUrl'> & Ports<'receipts'>

/** How the request came: the 402 names the resource the client called (the HTTP route, or the MCP endpoint and tool). */
export type PaidTransport = 'http' | 'mcp'

export const LOOKSMAXX_TOOL = 'submit_looksmaxx'

/** The paid resource's URL as the client calls it: the route over HTTP, the MCP endpoint over MCP. */
export function looksmaxxResource(ctx: Pick<PortraitContext, 'baseUrl'>, transport: PaidTransport): string {
  return transport === 'mcp' ? `${ctx.baseUrl()}${MCP_PATH}` : `${ctx.baseUrl()}/api/x402/looksmaxx`
}

/** The 402 answer of the looksmaxx endpoint: how to pay and what to burn. */
export function paymentRequiredBody(ctx: Pick<PortraitContext, 'chain' | 'baseUrl'>, error?: string, resource?: string) {
  return {
    x402Version: 1 as const,
    ...(error ? { error } : {}),
    accepts: looksmaxxOffers(ctx, resource),
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

const EXAMPLE_HASH = `0x${'ab'.repeat(32)}`
// Valid against the input schema (a facilitator validates the declaration before cataloguing it).
const INPUT_EXAMPLE = { burnTxHash: EXAMPLE_HASH, devTxHash: `0x${'cd'.repeat(32)}`, burnerAddress: `0x${'11'.repeat(20)}`, image: '<base64 of a JPEG, PNG or WebP portrait, at most 4 MB>', imageType: 'image/jpeg' }
const OUTPUT_EXAMPLE = {
  success: true,
  source: 'x402-agent',
  tokenId: '42',
  ipfsCid: 'bafy…',
  mintTxHash: EXAMPLE_HASH,
  receipts: { x402: { format: 'eip712', payload: {}, signature: '0x…' }, delivery: { format: 'eip712', payload: {}, signature: '0x…' } },
}

/** Built once per transport: the declaration depends on nothing but the schema. */
const bazaarHeld = new Map<PaidTransport, Promise<Record<string, unknown>>>()
function bazaarOf(transport: PaidTransport) {
  let held = bazaarHeld.get(transport)
  if (!held) {
    held = declareLooksmaxxBazaar(transport)
    held.catch(() => bazaarHeld.delete(transport))
    bazaarHeld.set(transport, held)
  }
  return held
}

/** How to call the paid looksmaxx, as x402's bazaar extension declares it for this transport. */
function declareLooksmaxxBazaar(transport: PaidTransport) {
  const inputSchema = jsonSchemaOf(submitLooksmaxxInput, 'input')
  if (transport === 'mcp') {
    return declareBazaar({
      transport: 'mcp',
      tool: LOOKSMAXX_TOOL,
      description: 'Redeem a 225,000-token burn and a 1 USDm x402 payment for a minted AI portrait NFT; the payment goes in _meta["x402/payment"].',
      // The tool's own inputSchema, as tools/list gives it.
      inputSchema: { type: 'object', ...inputSchema },
      example: INPUT_EXAMPLE,
      outputExample: OUTPUT_EXAMPLE,
    })
  }
  // Over HTTP the payment travels in a header, so the body schema leaves out paymentPayload.
  const { paymentPayload: _inBody, ...bodyProperties } = (inputSchema.properties ?? {}) as Record<string, unknown>
  return declareBazaar({ transport: 'http', method: 'POST', path: '/api/x402/looksmaxx', inputSchema: { ...inputSchema, properties: bodyProperties }, example: INPUT_EXAMPLE, outputExample: OUTPUT_EXAMPLE })
}

/**
 * The 402 in both x402 versions at once: the spec's v1 body (with its X-Payment-Required and
 * X-402-Version headers) and the v2 PaymentRequired in PAYMENT-REQUIRED. v2 clients read the
 * header first, v1 clients the body. Both carry the offers signed by the receipt key
 * (offer-receipt); the v2 one also declares the route or tool (bazaar) and payment-identifier.
 */
export async function paymentRequired(ctx: PaymentRequiredContext, error?: string, transport: PaidTransport = 'http') {
  const resource = looksmaxxResource(ctx, transport)
  const v2 = buildPaymentRequiredV2(looksmaxxOffers(ctx, resource), error)
  const [offers, bazaar] = await Promise.all([ctx.receipts.offers(resource, v2.accepts), bazaarOf(transport)])
  v2.extensions = { ...v2.extensions, ...bazaar, [OFFER_RECEIPT]: offers }
  return respond(402, { ...paymentRequiredBody(ctx, error, resource), extensions: { [OFFER_RECEIPT]: offers } }, {
    'X-Payment-Required': 'true',
    'X-402-Version': '1',
    'PAYMENT-REQUIRED': encodeX402Header(v2),
  })
}
