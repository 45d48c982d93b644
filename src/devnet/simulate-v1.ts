import { callProvider, type JsonRpcError, type JsonRpcHandler } from './edr-provider.ts'
import { JsonRpcFailure } from './rpc-server.ts'
import { callFrameLogs, type CallFrame } from './call-frame-logs.ts'
import type { RpcGate } from './rpc-gate.ts'

/** EIP-7825's per-transaction gas cap (osaka), the devnet's default transaction gas limit. */
const CALL_GAS_CAP = 16_777_216n
const MAX_CALLS = 100
const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000'

type SimCall = {
  from?: string
  to?: string | null
  data?: string
  input?: string
  value?: string
  gas?: string
  gasPrice?: string
  maxFeePerGas?: string
  maxPriorityFeePerGas?: string
  nonce?: string
}
type AccountOverride = { balance?: string; nonce?: string; code?: string; state?: unknown; stateDiff?: Record<string, string>; movePrecompileToAddress?: unknown }
type BlockStateCall = { calls?: SimCall[]; stateOverrides?: Record<string, AccountOverride>; blockOverrides?: Record<string, unknown> }
type SimulatePayload = { blockStateCalls?: BlockStateCall[]; traceTransfers?: boolean; validation?: boolean; returnFullTransactions?: boolean }

type Receipt = { status: string; gasUsed: string; blockNumber: string; blockHash: string; transactionHash: string; transactionIndex: string; logs: Array<{ address: string; topics: string[]; data: string }> }

const invalid = (message: string): never => {
  throw new JsonRpcFailure(-32602, message)
}

/**
 * The error codes of eth_simulateV1 (execution-apis) for a call the chain would not even
 * include, from EDR's wording of the same refusal.
 */
function validationFailure(error: JsonRpcError): JsonRpcFailure {
  const message = error.message
  if (/enough funds|insufficient funds/i.test(message)) return new JsonRpcFailure(-38014, `insufficient funds for gas * price + value: ${message}`)
  if (/nonce too (low|high)|nonce/i.test(message)) return new JsonRpcFailure(/low/i.test(message) ? -38010 : -38011, message)
  if (/intrinsic gas/i.test(message)) return new JsonRpcFailure(-38013, message)
  if (/base fee|fee per gas/i.test(message)) return new JsonRpcFailure(-38012, message)
  if (/gas limit/i.test(message)) return new JsonRpcFailure(-38015, message)
  return new JsonRpcFailure(error.code, message, error.data)
}

/**
 * `eth_simulateV1` (the execution-apis method geth, reth and MegaETH's nodes serve) for the
 * devnet, whose engine lacks it. Each call is mined for real on a snapshot, from its sender
 * (impersonated), in order, so state carries from call to call; the snapshot is then reverted
 * while the gate holds every other request back, so nothing of it stays on the chain or is seen.
 * Per call: status, gasUsed (the receipt's), returnData, logs (with `traceTransfers`, ETH
 * movements too, from the call tracer) and the revert error.
 *
 * Differences from a node: every call is mined in a block of its own (the block numbers of the
 * logs follow), blocks take the wall-clock timestamp as the devnet's blocks do, and
 * `blockOverrides`, a full `state` override and `movePrecompileToAddress` are refused. With
 * `validation` off (the default) calls pay no fee (gas price 0), as in eth_call; a value above
 * the sender's balance fails the whole request (-38014) as on geth. Transactions waiting in the
 * pool (automine off) are mined before the first call.
 */
export function createSimulateV1(provider: JsonRpcHandler, gate: RpcGate, externallyImpersonated: ReadonlySet<string>) {
  const call = async <T>(method: string, params: unknown[] = []): Promise<T> => {
    const { result, error } = await callProvider(provider, method, params)
    if (error) throw new JsonRpcFailure(error.code, error.message, error.data)
    return result as T
  }

  async function applyOverrides(overrides: Record<string, AccountOverride>) {
    for (const [address, o] of Object.entries(overrides)) {
      if (o.state !== undefined) invalid('the devnet does not support a full `state` override; use stateDiff')
      if (o.movePrecompileToAddress !== undefined) invalid('the devnet does not support movePrecompileToAddress')
      if (o.balance !== undefined) await call('hardhat_setBalance', [address, o.balance])
      if (o.nonce !== undefined) await call('hardhat_setNonce', [address, o.nonce])
      if (o.code !== undefined) await call('hardhat_setCode', [address, o.code])
      for (const [slot, value] of Object.entries(o.stateDiff ?? {})) await call('hardhat_setStorageAt', [address, slot, value])
    }
  }

  async function runCall(c: SimCall, options: { validation: boolean; traceTransfers: boolean }, impersonated: Set<string>) {
    const from = (c.from ?? ZERO_ADDRESS).toLowerCase()
    if (!impersonated.has(from)) {
      await call('hardhat_impersonateAccount', [from])
      impersonated.add(from)
    }
    const tx: Record<string, unknown> = { from, data: c.data ?? c.input ?? '0x', value: c.value ?? '0x0', gas: c.gas ?? `0x${CALL_GAS_CAP.toString(16)}` }
    if (c.to) tx.to = c.to
    if (options.validation) {
      for (const key of ['gasPrice', 'maxFeePerGas', 'maxPriorityFeePerGas', 'nonce'] as const) if (c[key] !== undefined) tx[key] = c[key]
    } else {
      // As eth_call: no fee. The next block's base fee is set to 0 so that a 0 gas price is valid.
      await call('hardhat_setNextBlockBaseFeePerGas', ['0x0'])
      tx.gasPrice = '0x0'
    }
    const sent = await callProvider(provider, 'eth_sendTransaction', [tx])
    if (sent.error) throw validationFailure(sent.error)
    const hash = sent.result as string
    const receipt = await call<Receipt | null>('eth_getTransactionReceipt', [hash])
    if (!receipt) throw new JsonRpcFailure(-32603, 'the simulated call was not mined')
    const trace = await call<CallFrame & { output?: string }>('debug_traceTransaction', [hash, { tracer: 'callTracer', tracerConfig: { withLog: true } }])
    const ok = receipt.status === '0x1'
    const logs = ok ? (options.traceTransfers ? callFrameLogs(trace) : receipt.logs.map(({ address, topics, data }) => ({ address, topics, data }))) : []
    const revert = !ok && trace.error && /revert/i.test(trace.error)
    return {
      receipt,
      result: {
        status: receipt.status,
        gasUsed: receipt.gasUsed,
        returnData: trace.output ?? '0x',
        logs: logs.map((log, i) => ({
          ...log,
          blockNumber: receipt.blockNumber,
          blockHash: receipt.blockHash,
          transactionHash: receipt.transactionHash,
          transactionIndex: receipt.transactionIndex,
          logIndex: `0x${i.toString(16)}`,
          removed: false,
        })),
        ...(ok ? {} : { error: revert ? { code: 3, message: 'execution reverted', data: trace.output ?? '0x' } : { code: -32015, message: trace.error ?? 'execution failed' } }),
      },
    }
  }

  return async function simulateV1(params: unknown[]): Promise<unknown> {
    const [payload, blockTag = 'latest'] = params as [SimulatePayload | undefined, unknown]
    if (!payload || typeof payload !== 'object' || !Array.isArray(payload.blockStateCalls) || payload.blockStateCalls.length === 0) {
      invalid('eth_simulateV1 needs { blockStateCalls: [...] }')
    }
    const blocks = payload!.blockStateCalls!
    if (blocks.reduce((n, b) => n + (b.calls?.length ?? 0), 0) > MAX_CALLS) invalid(`at most ${MAX_CALLS} calls`)
    for (const b of blocks) {
      if (b.blockOverrides && Object.keys(b.blockOverrides).length > 0) invalid('the devnet does not support blockOverrides')
      for (const c of b.calls ?? []) if (c.from !== undefined && !/^0x[0-9a-fA-F]{40}$/.test(c.from)) invalid(`invalid from address ${String(c.from)}`)
    }
    const options = { validation: payload!.validation === true, traceTransfers: payload!.traceTransfers === true }

    return gate.exclusive(async () => {
      const head = BigInt(await call<string>('eth_blockNumber'))
      if (!['latest', 'pending', 'safe', 'finalized'].includes(String(blockTag)) && !(typeof blockTag === 'string' && /^0x[0-9a-f]+$/i.test(blockTag) && BigInt(blockTag) === head)) {
        invalid(`the devnet simulates on top of the latest block (${head}) only`)
      }
      const automine = await call<boolean>('hardhat_getAutomine')
      const snapshot = await call<string>('evm_snapshot')
      const impersonated = new Set<string>()
      try {
        if (!automine) await call('evm_setAutomine', [true])
        const out = []
        for (const b of blocks) {
          await applyOverrides(b.stateOverrides ?? {})
          const calls = []
          let first: Receipt | undefined
          let gasUsed = 0n
          for (const c of b.calls ?? []) {
            const { receipt, result } = await runCall(c, options, impersonated)
            first ??= receipt
            gasUsed += BigInt(receipt.gasUsed)
            calls.push(result)
          }
          const block = await call<{ number: string; hash: string; timestamp: string; gasLimit: string; baseFeePerGas?: string; miner: string }>(
            'eth_getBlockByNumber', [first?.blockNumber ?? 'latest', false],
          )
          out.push({
            number: first ? block.number : `0x${(head + 1n + BigInt(out.length)).toString(16)}`,
            hash: block.hash,
            timestamp: block.timestamp,
            gasLimit: block.gasLimit,
            gasUsed: `0x${gasUsed.toString(16)}`,
            baseFeePerGas: options.validation ? block.baseFeePerGas : '0x0',
            miner: block.miner,
            calls,
          })
        }
        return out
      } finally {
        await call('evm_revert', [snapshot])
        if (!automine) await call('evm_setAutomine', [false])
        for (const address of impersonated) if (!externallyImpersonated.has(address)) await call('hardhat_stopImpersonatingAccount', [address])
      }
    })
  }
}

/**
 * Follows the impersonations asked for over JSON-RPC, so that a simulation ends only its own
 * (a test or script that impersonates an account keeps it).
 */
export function trackImpersonation(method: string, params: unknown[], answered: { error?: unknown }, into: Set<string>) {
  if (answered.error || typeof params[0] !== 'string') return
  if (method === 'hardhat_impersonateAccount') into.add(params[0].toLowerCase())
  if (method === 'hardhat_stopImpersonatingAccount') into.delete(params[0].toLowerCase())
}
