import { z } from 'zod'
import { erc20Abi, formatUnits, isAddressEqual, parseSignature, recoverTypedDataAddress, encodeFunctionData } from 'viem'
import { defineOperation } from '../define.ts'
import { addressIn, addressOut, txRequest, wei } from '../schemas.ts'
import { AppError } from '../../errors/app-error.ts'
import { relayerAbi, burnRequestTypes } from '../../chain/abis/economy.ts'
import { buildApprove } from '../../chain/builders/build-approve.ts'
import { rpcFailed } from '../../chain/upstream-error.ts'
import { BURN_TOTAL_WEI, CHAIN_ID } from '../../chain/constants.ts'
import type { Context } from '../../context.ts'

/** How long a signature the GET prepares stays valid. */
const DEADLINE_SECONDS = 600

async function readBurnerState(ctx: Context, burner: `0x${string}`) {
  const { token, relayer } = ctx.chain.contracts
  try {
    const [allowance, nonce, balance] = await ctx.chain.client.multicall({
      allowFailure: false,
      contracts: [
        { address: token, abi: erc20Abi, functionName: 'allowance', args: [burner, relayer] },
        { address: relayer, abi: relayerAbi, functionName: 'nonces', args: [burner] },
        { address: token, abi: erc20Abi, functionName: 'balanceOf', args: [burner] },
      ],
    })
    return { allowance, nonce, balance }
  } catch (cause) {
    throw rpcFailed('reading the burner state', cause)
  }
}

const domainOf = (ctx: Context) => ({ name: 'MegaChadRelayer', version: '1', chainId: CHAIN_ID, verifyingContract: ctx.chain.contracts.relayer })

export const getGaslessBurn = defineOperation({
  id: 'get_gasless_burn',
  method: 'GET',
  path: '/api/gasless/burn',
  summary: 'Prepare a gasless burn: approval status, balance, and the EIP-712 BurnRequest to sign',
  description: 'Approve the relayer contract once (the approve transaction is included when needed), sign signTypedData as is, and POST the signature. The service relays the burn and pays the gas.',
  tags: ['economy'],
  input: z.object({ address: addressIn('Burner wallet') }),
  output: z.object({
    ready: z.boolean(),
    approval: z.object({ status: z.enum(['approved', 'needed']), allowance: wei, transaction: txRequest.nullable() }),
    balance: z.object({ balance: wei, required: wei, sufficient: z.boolean(), balanceFormatted: z.string() }),
    signTypedData: z.object({
      domain: z.object({ name: z.string(), version: z.string(), chainId: z.number().int(), verifyingContract: addressOut }),
      types: z.record(z.string(), z.array(z.object({ name: z.string(), type: z.string() }))),
      primaryType: z.literal('BurnRequest'),
      message: z.object({ burner: addressOut, nonce: z.string(), deadline: z.number().int() }),
    }),
    relayerContract: addressOut,
  }),
  errors: ['INVALID_ADDRESS', 'UPSTREAM_FAILED'],
  cacheControl: 'no-store',
  async handler(ctx, { address }) {
    const state = await readBurnerState(ctx, address)
    const approved = state.allowance >= BURN_TOTAL_WEI
    const sufficient = state.balance >= BURN_TOTAL_WEI
    return {
      ready: approved && sufficient,
      approval: {
        status: approved ? ('approved' as const) : ('needed' as const),
        allowance: state.allowance.toString(),
        transaction: approved ? null : { ...buildApprove({ token: ctx.chain.contracts.token, spender: ctx.chain.contracts.relayer, chainId: CHAIN_ID }), description: 'Approve the relayer once.' },
      },
      balance: { balance: state.balance.toString(), required: BURN_TOTAL_WEI.toString(), sufficient, balanceFormatted: formatUnits(state.balance, 18) },
      signTypedData: {
        domain: domainOf(ctx),
        types: { BurnRequest: [...burnRequestTypes.BurnRequest] },
        primaryType: 'BurnRequest' as const,
        message: { burner: address, nonce: state.nonce.toString(), deadline: Math.floor(Date.now() / 1000) + DEADLINE_SECONDS },
      },
      relayerContract: ctx.chain.contracts.relayer,
    }
  },
})

const relayResult = z.object({
  success: z.boolean(),
  txHash: z.string(),
  blockNumber: z.number().int(),
  gasUsed: z.string(),
  explorerUrl: z.string(),
  looksmaxx: z.object({ burnTxHash: z.string(), devTxHash: z.string(), note: z.string() }),
})

export const postGaslessBurn = defineOperation({
  id: 'relay_gasless_burn',
  invalidates: ['token'],
  method: 'POST',
  path: '/api/gasless/burn',
  summary: 'Relay a signed gasless burn; the service pays the gas',
  description: 'Checks the signature, deadline, balance and approval off-chain first (400), then relays through the relayer contract. The same signature twice returns the first relay, never a second burn. The relay transaction carries both transfers: submit its hash as both burnTxHash and devTxHash to redeem a portrait.',
  tags: ['economy'],
  input: z.object({
    burner: addressIn('Burner wallet'),
    deadline: z.number().int().positive().describe('Unix seconds after which the signature expires'),
    signature: z.string().regex(/^0x[0-9a-fA-F]{130}$/, { error: 'must be a 65-byte hex signature' }).meta({ errorCode: 'INVALID_SIGNATURE' }),
  }),
  output: relayResult,
  errors: ['INVALID_ADDRESS', 'INVALID_SIGNATURE', 'SIGNATURE_EXPIRED', 'INSUFFICIENT_BALANCE', 'RELAY_FAILED', 'UPSTREAM_FAILED'],
  async handler(ctx, { burner, deadline, signature }) {
    const now = Math.floor(Date.now() / 1000)
    if (deadline <= now) throw new AppError('SIGNATURE_EXPIRED', `The deadline ${deadline} has passed (now ${now}); sign a new request.`)
    const state = await readBurnerState(ctx, burner)
    const signer = async (nonce: bigint) =>
      recoverTypedDataAddress({ domain: domainOf(ctx), types: burnRequestTypes, primaryType: 'BurnRequest', message: { burner, nonce, deadline: BigInt(deadline) }, signature: signature as `0x${string}` }).catch(() => undefined)
    const sender = ctx.economy.relayer

    const nonce = state.nonce
    if (!isAddressEqual((await signer(nonce)) ?? '0x0000000000000000000000000000000000000000', burner)) {
      // A signature for an already used nonce: if we relayed it, answer with that relay.
      const previous = await ctx.db.query<{ tx_key: string }>(
        'SELECT tx_key FROM gasless_relays WHERE burner = $1 AND lower(signature) = lower($2) AND relayer_nonce < $3 ORDER BY relayer_nonce DESC LIMIT 1',
        [burner, signature, nonce.toString()],
      )
      const row = previous.rows[0]
      const relayed = row ? await sender.find(row.tx_key) : undefined
      if (relayed?.status === 'mined') return toResult(ctx, relayed)
      throw new AppError('INVALID_SIGNATURE', 'The signature does not recover to the burner for its current relayer nonce. GET /api/gasless/burn for the message to sign.')
    }
    if (state.balance < BURN_TOTAL_WEI) throw new AppError('INSUFFICIENT_BALANCE', `The burner holds ${formatUnits(state.balance, 18)} tokens; 225,000 are needed.`)
    if (state.allowance < BURN_TOTAL_WEI) throw new AppError('INSUFFICIENT_BALANCE', 'The relayer is not approved for 225,000 tokens; send the approve transaction of GET /api/gasless/burn first.')

    // One relay per signed message (burner, nonce, deadline): the same message posted again
    // (even re-encoded) finds the first relay, never a second burn; a relay that reverted leaves
    // the nonce unused, and a new signature (a new deadline) for it is a new relay.
    const key = `gasless:${burner.toLowerCase()}:${nonce}:${deadline}`
    await ctx.db.query(
      `INSERT INTO gasless_relays (burner, relayer_nonce, signature, deadline, tx_key) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (burner, relayer_nonce, deadline) DO NOTHING`,
      [burner, nonce.toString(), signature, deadline, key],
    )
    const { v, r, s } = parseSignature(signature as `0x${string}`)
    const data = encodeFunctionData({ abi: relayerAbi, functionName: 'relayBurn', args: [burner, BigInt(deadline), Number(v), r, s] })
    let mined
    try {
      mined = await sender.sendAndWait({ key, to: ctx.chain.contracts.relayer, data })
    } catch (cause) {
      if ((cause as AppError).retryable) throw cause
      throw new AppError('RELAY_FAILED', 'The relay transaction could not be sent.', { cause })
    }
    if (mined.status !== 'mined') {
      throw new AppError('RELAY_FAILED', `The relay transaction ${mined.txHash} reverted.`, { details: { txHash: mined.txHash } })
    }
    return toResult(ctx, mined)
  },
})

function toResult(ctx: Context, mined: { txHash: string; blockNumber: number | null; gasUsed: string | null }) {
  return {
    success: true,
    txHash: mined.txHash,
    blockNumber: mined.blockNumber ?? 0,
    gasUsed: mined.gasUsed ?? '0',
    explorerUrl: `${ctx.chain.explorerUrl}/tx/${mined.txHash}`,
    looksmaxx: {
      burnTxHash: mined.txHash,
      devTxHash: mined.txHash,
      note: 'This one transaction carries both transfers: POST it as both hashes to /api/x402/looksmaxx.',
    },
  }
}
