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
  limit: 'expensive',
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
  description: 'Checks the signature, deadline, balance and approval off-chain first (400), then relays through the relayer contract. One relay per relayer nonce: the same signature posted again (even after its deadline), or another signature of the same nonce with another deadline, answers 200 with the relay that holds the nonce, never a second transaction. The relay transaction carries both transfers: submit its hash as both burnTxHash and devTxHash to redeem a portrait.',
  tags: ['economy'],
  input: z.object({
    burner: addressIn('Burner wallet'),
    deadline: z.number().int().positive().describe('Unix seconds after which the signature expires'),
    signature: z.string().regex(/^0x[0-9a-fA-F]{130}$/, { error: 'must be a 65-byte hex signature' }).meta({ errorCode: 'INVALID_SIGNATURE' }),
  }),
  output: relayResult,
  errors: ['INVALID_ADDRESS', 'INVALID_SIGNATURE', 'SIGNATURE_EXPIRED', 'INSUFFICIENT_BALANCE', 'RELAY_FAILED', 'UPSTREAM_FAILED'],
  async handler(ctx, { burner, deadline, signature }) {
    const sender = ctx.economy.relayer
    // The exact signature relayed before answers with that relay, whatever happened since
    // (its deadline passed, the relayer nonce moved on): an idempotent replay.
    const replayed = await ctx.db.query<{ tx_key: string }>(
      'SELECT tx_key FROM gasless_relays WHERE burner = $1 AND lower(signature) = lower($2) ORDER BY created_at LIMIT 1',
      [burner, signature],
    )
    if (replayed.rows[0]) {
      // Only a stored transaction is waited for (its data is the stored one; '0x' is never sent).
      const relayed = await sender.find(replayed.rows[0].tx_key)
      if (relayed) return answer(ctx, await waitFor(ctx, { key: relayed.idempotencyKey, to: ctx.chain.contracts.relayer, data: '0x' }))
    }

    const now = Math.floor(Date.now() / 1000)
    if (deadline <= now) throw new AppError('SIGNATURE_EXPIRED', `The deadline ${deadline} has passed (now ${now}); sign a new request.`)
    const state = await readBurnerState(ctx, burner)
    const nonce = state.nonce
    const signs = async (n: bigint) => {
      const signer = await recoverTypedDataAddress({
        domain: domainOf(ctx),
        types: burnRequestTypes,
        primaryType: 'BurnRequest',
        message: { burner, nonce: n, deadline: BigInt(deadline) },
        signature: signature as `0x${string}`,
      }).catch(() => undefined)
      return signer !== undefined && isAddressEqual(signer, burner)
    }
    if (!(await signs(nonce))) {
      // A signature of a nonce we relayed already (another deadline than the one relayed, posted
      // after that relay was mined): the relay that used the nonce answers.
      const held = await ctx.db.query<{ relayer_nonce: string; tx_key: string }>(
        'SELECT relayer_nonce, tx_key FROM gasless_nonces WHERE burner = $1 AND relayer_nonce < $2 ORDER BY relayer_nonce DESC LIMIT 3',
        [burner, nonce.toString()],
      )
      for (const row of held.rows) {
        if (!(await signs(BigInt(row.relayer_nonce)))) continue
        const relayed = await sender.find(row.tx_key)
        if (relayed) return answer(ctx, await waitFor(ctx, { key: relayed.idempotencyKey, to: ctx.chain.contracts.relayer, data: '0x' }))
      }
      throw new AppError('INVALID_SIGNATURE', 'The signature does not recover to the burner for its current relayer nonce. GET /api/gasless/burn for the message to sign.')
    }
    if (state.balance < BURN_TOTAL_WEI) throw new AppError('INSUFFICIENT_BALANCE', `The burner holds ${formatUnits(state.balance, 18)} tokens; 225,000 are needed.`)
    if (state.allowance < BURN_TOTAL_WEI) throw new AppError('INSUFFICIENT_BALANCE', 'The relayer is not approved for 225,000 tokens; send the approve transaction of GET /api/gasless/burn first.')

    // One relay per relayer nonce, whatever the deadline: signatures of the same nonce with
    // other deadlines (posted together or later) get the relay that holds the nonce, never a
    // second transaction that could only revert at the relayer's cost. A new signature takes
    // the nonce over only once the holder reverted or was dropped (the nonce is still unused).
    const key = `gasless:${burner.toLowerCase()}:${nonce}:${deadline}`
    const holder = await holdNonce(ctx, burner, nonce, key)
    await ctx.db.query(
      `INSERT INTO gasless_relays (burner, relayer_nonce, signature, deadline, tx_key) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (burner, relayer_nonce, deadline) DO NOTHING`,
      [burner, nonce.toString(), signature, deadline, holder],
    )
    const { v, r, s } = parseSignature(signature as `0x${string}`)
    const data = encodeFunctionData({ abi: relayerAbi, functionName: 'relayBurn', args: [burner, BigInt(deadline), Number(v), r, s] })
    // The holder's stored transaction is found by its key (this data is used only if the holder
    // has not stored one yet, and then it relays the same nonce).
    return answer(ctx, await waitFor(ctx, { key: holder, to: ctx.chain.contracts.relayer, data }))
  },
})

/** The key of the relay that holds (burner, nonce): this request's own key when it won. */
async function holdNonce(ctx: Context, burner: `0x${string}`, nonce: bigint, key: string): Promise<string> {
  for (;;) {
    const inserted = await ctx.db.query<{ tx_key: string }>(
      'INSERT INTO gasless_nonces (burner, relayer_nonce, tx_key) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING tx_key',
      [burner, nonce.toString(), key],
    )
    if (inserted.rows[0]) return key
    const current = (await ctx.db.query<{ tx_key: string }>('SELECT tx_key FROM gasless_nonces WHERE burner = $1 AND relayer_nonce = $2', [burner, nonce.toString()])).rows[0]
    if (!current) continue
    if (current.tx_key === key) return key
    const held = await ctx.economy.relayer.find(current.tx_key)
    if (!held || (held.status !== 'reverted' && held.status !== 'dropped')) return current.tx_key
    const taken = await ctx.db.query('UPDATE gasless_nonces SET tx_key = $3 WHERE burner = $1 AND relayer_nonce = $2 AND tx_key = $4 RETURNING tx_key', [
      burner, nonce.toString(), key, current.tx_key,
    ])
    if (taken.rows[0]) return key
  }
}

async function waitFor(ctx: Context, request: { key: string; to: `0x${string}`; data: `0x${string}` }) {
  try {
    const mined = await ctx.economy.relayer.sendAndWait(request)
    ctx.log.info({ txHash: mined.txHash, status: mined.status, blockNumber: mined.blockNumber }, `gasless: relay ${mined.txHash} ${mined.status}`)
    return mined
  } catch (cause) {
    if ((cause as AppError).retryable) throw cause
    throw new AppError('RELAY_FAILED', 'The relay transaction could not be sent.', { cause })
  }
}

function answer(ctx: Context, mined: { txHash: string; status: string; blockNumber: number | null; gasUsed: string | null }) {
  if (mined.status !== 'mined') {
    throw new AppError('RELAY_FAILED', `The relay transaction ${mined.txHash} reverted.`, { details: { txHash: mined.txHash } })
  }
  return toResult(ctx, mined)
}

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
