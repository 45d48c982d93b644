import { z } from 'zod'
import { formatUnits, isAddressEqual, recoverTypedDataAddress } from 'viem'
import { defineOperation, type Ports } from '../define.ts'
import { addressIn } from '../schemas.ts'
import { AppError } from '../../errors/app-error.ts'
import { burnRequestDomain, burnRequestTypes } from '../../chain/abis/economy.ts'
import { buildRelayBurn } from '../../chain/builders/build-relay-burn.ts'
import { readBurnerState } from '../../chain/reads/read-burner-state.ts'
import { estimateCall } from '../../chain/reads/estimate-call.ts'
import { BURN_TOTAL_WEI, CHAIN_ID } from '../../chain/constants.ts'
import { claimNonce, findNonceHolder, findRelayBySignature, listHeldNoncesBelow, recordRelayRequest, takeOverNonce } from '../../store/gasless-relays.ts'

type RelayPorts = Ports<'chain' | 'db' | 'economy' | 'log'>

const relayResult = z.object({
  success: z.boolean(),
  txHash: z.string(),
  blockNumber: z.number().int(),
  gasUsed: z.string(),
  explorerUrl: z.string(),
  looksmaxx: z.object({ burnTxHash: z.string(), devTxHash: z.string(), note: z.string() }),
})

export const relayGaslessBurn = defineOperation({
  id: 'relay_gasless_burn',
  destructive: true,
  idempotent: true,
  invalidates: ['token'],
  effectBlock: (relay) => BigInt(relay.blockNumber),
  method: 'POST',
  path: '/api/gasless/burn',
  summary: 'Relay a signed gasless burn; the service pays the gas',
  description: 'Checks the signature, deadline, balance and approval before anything is stored or sent (the relay is simulated on the chain; a relay that would fail is answered 400 with the reason), then relays through the relayer contract. One relay per relayer nonce: the same signature posted again (even after its deadline), or another signature of the same nonce with another deadline, answers 200 with the relay that holds the nonce, never a second transaction. The relay transaction carries both transfers: submit its hash as both burnTxHash and devTxHash to redeem a portrait.',
  tags: ['economy'],
  input: z.object({
    burner: addressIn('Burner wallet'),
    deadline: z.number().int().positive().describe('Unix seconds after which the signature expires'),
    signature: z.string().regex(/^0x[0-9a-fA-F]{130}$/, { error: 'must be a 65-byte hex signature' }).meta({ errorCode: 'INVALID_SIGNATURE' }),
  }),
  output: relayResult,
  errors: ['INVALID_ADDRESS', 'INVALID_SIGNATURE', 'SIGNATURE_EXPIRED', 'INSUFFICIENT_BALANCE', 'RELAY_FAILED', 'UPSTREAM_FAILED'],
  uses: ['chain', 'db', 'economy', 'log', 'clock'],
  async handler(ctx, { burner, deadline, signature }) {
    const sender = ctx.economy.relayer
    const now = Math.floor(ctx.clock() / 1000)
    const expired = deadline <= now
    // The relay simulated from the relayer's address, beside the read of the burner's state:
    // when it would succeed, the contract has checked the signature (for the current nonce and
    // this deadline), the balance and the approval, and its gas estimate goes to the sender.
    // Only a relay that would fail is examined here, to say why.
    const data = relayData(burner, deadline, signature)
    const [state, gas] = expired
      ? [undefined, undefined]
      : await Promise.all([
          readBurnerState(ctx.chain, burner),
          data ? estimateCall(ctx.chain, { from: sender.address, to: ctx.chain.contracts.relayer, data }) : undefined,
        ])
    const willSucceed = state !== undefined && gas !== undefined && state.balance >= BURN_TOTAL_WEI && state.allowance >= BURN_TOTAL_WEI
    if (!willSucceed) {
      // The exact signature relayed before answers with that relay, whatever happened since
      // (its deadline passed, the relayer nonce moved on): an idempotent replay. A relay that
      // would succeed needs no look: a replay of it is found below as the holder of its nonce.
      const replayed = await findRelayBySignature(ctx.db, burner, signature)
      // Only a stored transaction is waited for (its data is the stored one; '0x' is never sent).
      const relayed = replayed ? await sender.find(replayed) : undefined
      if (relayed) return answer(ctx, await waitFor(ctx, { key: relayed.idempotencyKey, to: ctx.chain.contracts.relayer, data: '0x' }))
    }
    if (!state) throw new AppError('SIGNATURE_EXPIRED', `The deadline ${deadline} has passed (now ${now}); sign a new request.`)
    const nonce = state.nonce
    const signs = async (n: bigint) => {
      const signer = await recoverTypedDataAddress({
        domain: burnRequestDomain(ctx.chain.contracts.relayer, CHAIN_ID),
        types: burnRequestTypes,
        primaryType: 'BurnRequest',
        message: { burner, nonce: n, deadline: BigInt(deadline) },
        signature: signature as `0x${string}`,
      }).catch(() => undefined)
      return signer !== undefined && isAddressEqual(signer, burner)
    }
    if (!willSucceed && !(await signs(nonce))) {
      // A signature of a nonce we relayed already (another deadline than the one relayed, posted
      // after that relay was mined): the relay that used the nonce answers.
      for (const held of await listHeldNoncesBelow(ctx.db, burner, nonce, 3)) {
        if (!(await signs(held.nonce))) continue
        const relayed = await sender.find(held.txKey)
        if (relayed) return answer(ctx, await waitFor(ctx, { key: relayed.idempotencyKey, to: ctx.chain.contracts.relayer, data: '0x' }))
      }
      throw new AppError('INVALID_SIGNATURE', 'The signature does not recover to the burner for its current relayer nonce. GET /api/gasless/burn for the message to sign.')
    }
    if (state.balance < BURN_TOTAL_WEI) throw new AppError('INSUFFICIENT_BALANCE', `The burner holds ${formatUnits(state.balance, 18)} tokens; 225,000 are needed.`)
    if (state.allowance < BURN_TOTAL_WEI) throw new AppError('INSUFFICIENT_BALANCE', 'The relayer is not approved for 225,000 tokens; send the approve transaction of GET /api/gasless/burn first.')
    // A signature that recovers is always splittable; said here for the type, before anything is stored.
    if (!data) throw new AppError('INVALID_SIGNATURE', 'The signature cannot be split into v, r and s.')

    // One relay per relayer nonce, whatever the deadline: signatures of the same nonce with
    // other deadlines (posted together or later) get the relay that holds the nonce, never a
    // second transaction that could only revert at the relayer's cost. A new signature takes
    // the nonce over only once the holder reverted or was dropped (the nonce is still unused).
    const key = `gasless:${burner.toLowerCase()}:${nonce}:${deadline}`
    const { holder, recorded } = await holdNonce(ctx, burner, nonce, key, { signature, deadline })
    if (!recorded) await recordRelayRequest(ctx.db, { burner, nonce, signature, deadline, txKey: holder })
    // The holder's stored transaction is found by its key (this data is used only if the holder
    // has not stored one yet, and then it relays the same nonce).
    return answer(ctx, await waitFor(ctx, { key: holder, to: ctx.chain.contracts.relayer, data, gas }))
  },
})

/**
 * The key of the relay that holds (burner, nonce): this request's own key when it won. A first
 * claim that wins records the request with it (`recorded`), the common case in one statement.
 */
async function holdNonce(ctx: RelayPorts, burner: `0x${string}`, nonce: bigint, key: string, request: { signature: string; deadline: number }): Promise<{ holder: string; recorded: boolean }> {
  for (let first = true; ; first = false) {
    if (await claimNonce(ctx.db, burner, nonce, key, first ? request : undefined)) return { holder: key, recorded: first }
    const current = await findNonceHolder(ctx.db, burner, nonce)
    if (!current) continue
    if (current === key) return { holder: key, recorded: false }
    const held = await ctx.economy.relayer.find(current)
    if (!held || (held.status !== 'reverted' && held.status !== 'dropped')) return { holder: current, recorded: false }
    if (await takeOverNonce(ctx.db, burner, nonce, current, key)) return { holder: key, recorded: false }
  }
}

/** The relayBurn calldata, or undefined for a signature that cannot even be split into v, r, s. */
function relayData(burner: `0x${string}`, deadline: number, signature: string): `0x${string}` | undefined {
  try {
    return buildRelayBurn({ burner, deadline: BigInt(deadline), signature: signature as `0x${string}` })
  } catch {
    return undefined
  }
}

async function waitFor(ctx: RelayPorts, request: { key: string; to: `0x${string}`; data: `0x${string}`; gas?: bigint }) {
  try {
    const mined = await ctx.economy.relayer.sendAndWait(request)
    ctx.log.info({ txHash: mined.txHash, status: mined.status, blockNumber: mined.blockNumber }, `gasless: relay ${mined.txHash} ${mined.status}`)
    return mined
  } catch (cause) {
    if ((cause as AppError).retryable) throw cause
    throw new AppError('RELAY_FAILED', 'The relay transaction could not be sent.', { cause })
  }
}

function answer(ctx: RelayPorts, mined: { txHash: string; status: string; blockNumber: number | null; gasUsed: string | null }) {
  if (mined.status !== 'mined') {
    throw new AppError('RELAY_FAILED', `The relay transaction ${mined.txHash} reverted.`, { details: { txHash: mined.txHash } })
  }
  return toResult(ctx, mined)
}

function toResult(ctx: RelayPorts, mined: { txHash: string; blockNumber: number | null; gasUsed: string | null }) {
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
