import { z } from 'zod'
import { formatEther, formatUnits } from 'viem'
import { defineOperation } from '../define.ts'
import { walletIn, addressOut, txRequest } from '../schemas.ts'
import { readWalletBalances } from '../../chain/reads/read-wallet-balances.ts'
import { readPoolQuotes } from '../../chain/reads/read-pool-quotes.ts'
import { buildBuySwapParams, encodeExactInputSingle } from '../../chain/builders/build-swap.ts'
import { buildTokenTransfer } from '../../chain/builders/build-transfer.ts'
import { parseEthAmount } from '../swap/parse-eth-amount.ts'
import { AppError } from '../../errors/app-error.ts'
import type { Chain } from '../../chain/clients.ts'
import { burnerProof } from './payment-required.ts'
import { sendableTxs, simulateForCaller, simulationOut } from '../plan-simulation.ts'
import { looksmaxxRequirements } from '../../pipeline/submit-portrait.ts'
import { BURN_ADDRESS, BURN_HALF_WEI, BURN_TOTAL_WEI, TOKEN_DECIMALS } from '../../chain/constants.ts'

const step = z.object({
  step: z.number().int(),
  action: z.enum(['swap', 'burn', 'tren_fund', 'submit']),
  description: z.string(),
  skip: z.boolean(),
  skipReason: z.string(),
  transaction: txRequest.partial().nullable(),
  postRequest: z
    .object({
      method: z.literal('POST'),
      url: z.string(),
      contentType: z.string(),
      headers: z.record(z.string(), z.string()),
      bodyTemplate: z.record(z.string(), z.unknown()),
      paymentRequirements: z.record(z.string(), z.unknown()),
      burnerProof: z.record(z.string(), z.unknown()).optional(),
    })
    .nullable(),
})

const tokens = (wei: bigint) => Number(formatUnits(wei, TOKEN_DECIMALS))

export const getLooksmaxxPlan = defineOperation({
  id: 'get_looksmaxx_plan',
  limit: 'expensive',
  method: 'GET',
  path: '/api/agent/looksmaxx',
  summary: 'Ordered plan for a wallet to looksmaxx: swap, burn, fund transfer, submit, each ready to send',
  description:
    'The swap step is skipped when the wallet already holds 225,000 tokens. Without ethAmount the swap buys exactly the missing tokens (quoted as exact output, plus 2% slippage room). An ethAmount whose swap does not guarantee the missing tokens (the quote less the 2% slippage room) is 400 INVALID_AMOUNT, with the ETH that covers them in details.ethNeeded: the burns of such a plan could only revert. The swap, burn and fund transfers are simulated from the wallet in order (simulation): a plan that would fail (no ETH, too few tokens) is still handed out, marked simulation.executable false with the step and the reason.',
  tags: ['looksmaxx'],
  input: z.object({
    wallet: walletIn('Wallet that will burn and receive the NFT'),
    ethAmount: z.string().optional().describe('ETH to swap (omit to buy exactly what is missing)'),
  }),
  output: z.object({
    wallet: addressOut,
    currentState: z.object({ ethBalance: z.string(), coinBalance: z.number(), hasEnoughTokens: z.boolean(), tokensNeeded: z.number() }),
    steps: z.array(step),
    expectedResult: z.object({ description: z.string(), returns: z.record(z.string(), z.string()), statusUrlTemplate: z.string() }),
    chain: z.object({ name: z.string(), chainId: z.number().int(), rpc: z.string() }),
    simulation: simulationOut.nullable().describe('Steps 1-3 (those not skipped) simulated from the wallet, numbered as in steps; null when the swap could not be quoted'),
  }),
  errors: ['INVALID_ADDRESS', 'INVALID_AMOUNT', 'UPSTREAM_FAILED'],
  cacheControl: 'no-cache',
  uses: ['chain', 'baseUrl'],
  async handler(ctx, { wallet, ethAmount }) {
    const { contracts, info } = ctx.chain
    const balances = await readWalletBalances(ctx.chain, wallet)
    const missing = balances.coin >= BURN_TOTAL_WEI ? 0n : BURN_TOTAL_WEI - balances.coin
    let swap: z.input<typeof step>
    if (missing === 0n) {
      swap = { step: 1, action: 'swap', description: 'No swap needed.', skip: true, skipReason: 'The wallet already holds at least 225,000 tokens.', transaction: null, postRequest: null }
    } else {
      let amountIn: bigint | undefined = ethAmount ? parseEthAmount(ethAmount) : undefined
      let quotedOut: bigint | undefined
      if (amountIn === undefined) {
        ;({ amountIn, quotedOut } = await priceTokens(ctx.chain, missing))
      } else {
        const [quote] = await readPoolQuotes(ctx.chain, [{ tokenIn: contracts.weth, tokenOut: contracts.token, amountIn }])
        quotedOut = quote?.amountOut
        // A swap that may not cover the burn (its guaranteed minimum, the quote less the
        // slippage room, is short) leaves the burn and fund steps to revert: a plan that spends
        // the caller's ETH and gas for nothing is refused before anything is sent.
        const guaranteed = quotedOut === undefined ? undefined : buildBuySwapParams({ weth: contracts.weth, token: contracts.token, amountIn, quotedOut, recipient: wallet }).amountOutMinimum
        if (quotedOut !== undefined && guaranteed !== undefined && guaranteed < missing) {
          const enough = (await priceTokens(ctx.chain, missing)).amountIn
          throw new AppError(
            'INVALID_AMOUNT',
            `ethAmount ${ethAmount} buys about ${tokens(quotedOut).toLocaleString('en-US')} tokens (at least ${tokens(guaranteed).toLocaleString('en-US')} after the slippage room); ${tokens(missing).toLocaleString('en-US')} are needed.${enough ? ` About ${formatEther(enough)} ETH covers them;` : ''} omit ethAmount to buy exactly what is missing.`,
            { details: { field: 'ethAmount', tokensOut: tokens(quotedOut), tokensGuaranteed: tokens(guaranteed), tokensNeeded: tokens(missing), ...(enough ? { ethNeeded: formatEther(enough) } : {}) } },
          )
        }
      }
      if (amountIn !== undefined && quotedOut !== undefined) {
        const params = buildBuySwapParams({ weth: contracts.weth, token: contracts.token, amountIn, quotedOut, recipient: wallet })
        swap = {
          step: 1,
          action: 'swap',
          description: `Swap ${formatEther(amountIn)} ETH for about ${tokens(quotedOut).toLocaleString('en-US')} tokens (${tokens(missing).toLocaleString('en-US')} needed).`,
          skip: false,
          skipReason: '',
          transaction: {
            to: contracts.swapRouter,
            value: amountIn.toString(),
            data: encodeExactInputSingle({ ...params, recipient: wallet }),
            chainId: info.chainId,
            functionName: 'exactInputSingle',
            args: [{ ...params, amountIn: params.amountIn.toString(), amountOutMinimum: params.amountOutMinimum.toString(), sqrtPriceLimitX96: '0' }],
          },
          postRequest: null,
        }
      } else {
        swap = {
          step: 1,
          action: 'swap',
          description: `Buy ${tokens(missing).toLocaleString('en-US')} tokens with ETH; the DEX could not quote right now, retry or GET /api/x402/quote.`,
          skip: false,
          skipReason: '',
          transaction: { to: contracts.swapRouter, chainId: info.chainId },
          postRequest: null,
        }
      }
    }
    const transfer = (to: `0x${string}`) => buildTokenTransfer({ token: contracts.token, to, amount: BURN_HALF_WEI, chainId: info.chainId })
    const burn = { step: 2, action: 'burn' as const, description: `Send 112,500 tokens to the burn address ${BURN_ADDRESS}.`, skip: false, skipReason: '', transaction: transfer(BURN_ADDRESS), postRequest: null }
    const fund = { step: 3, action: 'tren_fund' as const, description: `Send 112,500 tokens to the fund wallet ${ctx.chain.fundWallet}.`, skip: false, skipReason: '', transaction: transfer(ctx.chain.fundWallet), postRequest: null }
    // A plan for a wallet that cannot carry it out yet (no ETH, no tokens) still tells it what to
    // do: it is marked not executable, with the step and the reason, rather than refused.
    const txs = sendableTxs([swap, burn, fund].filter((s) => !s.skip).map((s) => ({ ...s.transaction, step: s.step })))
    const simulation = txs ? await simulateForCaller(ctx.chain, wallet, txs, 'mark') : null
    return {
      wallet,
      currentState: {
        ethBalance: formatEther(balances.eth),
        coinBalance: tokens(balances.coin),
        hasEnoughTokens: missing === 0n,
        tokensNeeded: tokens(missing),
      },
      steps: [
        swap,
        burn,
        fund,
        {
          step: 4,
          action: 'submit' as const,
          description: 'Sign the 1 USDm x402 payment with this wallet (the burner: only the burner may redeem its burns) and submit both hashes with your portrait. Paying from another wallet, or using POST /api/generate, needs the burner\'s RedeemBurn signature (burnerProof).',
          skip: false,
          skipReason: '',
          transaction: null,
          postRequest: {
            method: 'POST' as const,
            url: `${ctx.baseUrl()}/api/x402/looksmaxx`,
            contentType: 'application/json',
            headers: { 'X-PAYMENT': '<optional: base64 x402 payment payload instead of paymentPayload>' },
            bodyTemplate: {
              burnTxHash: '<hash of step 2>',
              devTxHash: '<hash of step 3>',
              burnerAddress: wallet,
              image: '<base64 JPEG, PNG or WebP, at most 4 MB>',
              imageType: 'image/jpeg',
              paymentPayload: {
                x402Version: 1,
                scheme: 'exact',
                network: 'megaeth',
                payload: { signature: '<EIP-712 signature>', authorization: { from: wallet, to: ctx.chain.facilitator, value: '1000000000000000000', validAfter: '<unix>', validBefore: '<unix>', nonce: '<random bytes32>' } },
              },
            },
            paymentRequirements: looksmaxxRequirements(ctx),
            burnerProof: burnerProof(ctx),
          },
        },
      ],
      expectedResult: {
        description: 'An AI-enhanced portrait pinned to IPFS and an NFT minted to the wallet.',
        returns: { imageUrl: 'gateway URL of the image', ipfsCid: 'CID of the image', ipfsUrl: 'gateway URL', tokenId: 'minted token ID' },
        statusUrlTemplate: `${ctx.baseUrl()}/api/x402/looksmaxx/{burnTxHash}`,
      },
      chain: info,
      simulation,
    }
  },
})

/**
 * The ETH that buys `missing` tokens with 2% to spare: one quote of 1 ETH gives the rate, a
 * second checks the estimate (3% over the rate). Both undefined when the pool cannot quote.
 */
async function priceTokens(chain: Chain, missing: bigint): Promise<{ amountIn?: bigint; quotedOut?: bigint }> {
  const { weth, token } = chain.contracts
  const [probe] = await readPoolQuotes(chain, [{ tokenIn: weth, tokenOut: token, amountIn: 10n ** 18n }])
  if (!probe) return {}
  const estimate = (missing * 10n ** 18n * 103n) / (probe.amountOut * 100n) + 1n
  const [quote] = await readPoolQuotes(chain, [{ tokenIn: weth, tokenOut: token, amountIn: estimate }])
  return quote ? { amountIn: estimate, quotedOut: quote.amountOut } : {}
}
