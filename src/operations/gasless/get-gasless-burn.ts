import { z } from 'zod'
import { formatUnits } from 'viem'
import { defineOperation } from '../define.ts'
import { addressIn, addressOut, txRequest, wei } from '../schemas.ts'
import { burnRequestDomain, burnRequestTypes } from '../../chain/abis/economy.ts'
import { buildApprove } from '../../chain/builders/build-approve.ts'
import { readBurnerState } from '../../chain/reads/read-burner-state.ts'
import { BURN_TOTAL_WEI, CHAIN_ID } from '../../chain/constants.ts'
import { simulateForCaller, simulationOut } from '../plan-simulation.ts'

/** How long a signature the GET prepares stays valid. */
const DEADLINE_SECONDS = 600

export const getGaslessBurn = defineOperation({
  id: 'get_gasless_burn',
  limit: 'expensive',
  method: 'GET',
  path: '/api/gasless/burn',
  summary: 'Prepare a gasless burn: approval status, balance, and the EIP-712 BurnRequest to sign',
  description: 'Approve the relayer contract once (the approve transaction is included when needed, simulated from the address: simulation), sign signTypedData as is, and POST the signature. The service relays the burn and pays the gas.',
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
    simulation: simulationOut.nullable().describe('The approve transaction simulated from address (null when no approval is needed); one that would fail is marked executable false with the reason'),
  }),
  errors: ['INVALID_ADDRESS', 'UPSTREAM_FAILED'],
  cacheControl: 'no-store',
  uses: ['chain', 'clock'],
  async handler(ctx, { address }) {
    const state = await readBurnerState(ctx.chain, address)
    const approved = state.allowance >= BURN_TOTAL_WEI
    const sufficient = state.balance >= BURN_TOTAL_WEI
    const approve = approved ? null : { ...buildApprove({ token: ctx.chain.contracts.token, spender: ctx.chain.contracts.relayer, chainId: CHAIN_ID }), description: 'Approve the relayer once.' }
    const simulation = await simulateForCaller(ctx.chain, address, approve ? [approve] : [], 'mark')
    return {
      ready: approved && sufficient,
      approval: {
        status: approved ? ('approved' as const) : ('needed' as const),
        allowance: state.allowance.toString(),
        transaction: approve,
      },
      balance: { balance: state.balance.toString(), required: BURN_TOTAL_WEI.toString(), sufficient, balanceFormatted: formatUnits(state.balance, 18) },
      signTypedData: {
        domain: burnRequestDomain(ctx.chain.contracts.relayer, CHAIN_ID),
        types: { BurnRequest: [...burnRequestTypes.BurnRequest] },
        primaryType: 'BurnRequest' as const,
        message: { burner: address, nonce: state.nonce.toString(), deadline: Math.floor(ctx.clock() / 1000) + DEADLINE_SECONDS },
      },
      relayerContract: ctx.chain.contracts.relayer,
      simulation,
    }
  },
})

