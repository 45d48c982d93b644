import { BaseError, formatEther, toHex, type Address } from 'viem'
import type { Chain } from '../clients.ts'
import { rpcFailed } from '../upstream-error.ts'
import { TOKEN_SYMBOL } from '../constants.ts'
import {
  decodeRevertReason, decodeSimulatedSteps, notSimulated, refusedStep, summarizeSimulation,
  type PlanSimulation, type RawSimulatedCall, type SimulatedStep, type SimulationCall, type TokenSymbols,
} from './decode-simulation.ts'

type RawBlock = { number: string; calls: RawSimulatedCall[] }
type RpcFailure = { code: number; message: string; data?: unknown }

/** How long an RPC that does not serve eth_simulateV1 is not asked again. */
const UNSUPPORTED_RETRY_MS = 10 * 60_000
const unsupportedUntil = new WeakMap<Chain, number>()

/** The JSON-RPC error under a viem error, if the node answered one. */
function rpcErrorOf(error: unknown): RpcFailure | undefined {
  const found = error instanceof BaseError ? error.walk((e) => typeof (e as { code?: unknown }).code === 'number') : error
  const e = found as { code?: unknown; details?: unknown; shortMessage?: unknown; message?: unknown; data?: unknown } | undefined
  if (!e || typeof e.code !== 'number') return undefined
  const message = typeof e.details === 'string' && e.details ? e.details : String(e.shortMessage ?? e.message ?? '')
  return { code: e.code, message, data: e.data }
}

/**
 * The node does not serve the method (geth -32601, EDR and others -32004, some -32000 with
 * words) or not in the form the service sends it (-32602): either way, asking again will not help.
 */
function isUnsupported(e: RpcFailure): boolean {
  return e.code === -32601 || e.code === -32004 || e.code === -32602 || /method .*(not (found|supported|available)|does not exist)|unsupported method/i.test(e.message)
}

/** A call the node would not include at all: eth_simulateV1's -38xxx codes (funds, nonce, fees, gas limits). */
function isValidationError(e: RpcFailure): boolean {
  return (e.code <= -38000 && e.code > -39000) || /insufficient funds/i.test(e.message)
}

/** The symbols of the tokens the service knows, for the movements' `symbol`. */
export function tokenSymbols(contracts: Chain['contracts']): TokenSymbols {
  const known: Array<[Address | undefined, string]> = [
    [contracts.token, TOKEN_SYMBOL],
    [contracts.secondToken, 'MEGAGOONER'],
    [contracts.usdm, 'USDm'],
    [contracts.weth, 'WETH'],
    [contracts.pair, 'MC-MG-LP'],
  ]
  return Object.fromEntries(known.filter(([a]) => a).map(([a, s]) => [a!.toLowerCase(), s]))
}

async function simulateV1(chain: Chain, from: Address, calls: SimulationCall[]): Promise<RawBlock[]> {
  const payload = {
    blockStateCalls: [{ calls: calls.map((c) => ({ from, to: c.to, data: c.data, value: toHex(c.value) })) }],
    traceTransfers: true,
    validation: false,
  }
  return (await chain.client.request({ method: 'eth_simulateV1', params: [payload, 'latest'] } as never)) as RawBlock[]
}

/**
 * The plan's steps through eth_simulateV1, in one request: state carries from step to step.
 * A step the node refuses to run (a value above the wallet's ETH) fails the whole request; the
 * shorter prefixes then find which step it is.
 */
async function simulateSteps(chain: Chain, from: Address, calls: SimulationCall[], symbols: TokenSymbols): Promise<{ block: bigint; steps: SimulatedStep[] }> {
  try {
    const [block] = await simulateV1(chain, from, calls)
    return { block: BigInt(block!.number) - 1n, steps: decodeSimulatedSteps(calls, block!.calls, symbols) }
  } catch (error) {
    const rpc = rpcErrorOf(error)
    if (!rpc || !isValidationError(rpc)) throw error
    // The longest prefix that runs ends just before the refused step.
    for (let length = calls.length - 1; length >= 0; length--) {
      let done: RawBlock | undefined
      if (length > 0) {
        try {
          ;[done] = await simulateV1(chain, from, calls.slice(0, length))
        } catch (e) {
          const again = rpcErrorOf(e)
          if (again && isValidationError(again)) continue
          throw e
        }
      }
      const refused = calls[length]!
      const message = /insufficient funds/i.test(rpc.message) ? `the wallet's ETH does not cover the ${formatEther(refused.value)} ETH this step sends` : rpc.message
      return {
        block: done ? BigInt(done.number) - 1n : await chain.client.getBlockNumber(),
        steps: [
          ...(done ? decodeSimulatedSteps(calls.slice(0, length), done.calls, symbols) : []),
          refusedStep(refused, length, message),
          ...calls.slice(length + 1).map((c, i) => notSimulated(c, length + 1 + i)),
        ],
      }
    }
    throw error
  }
}

/**
 * Without eth_simulateV1 only the first step can be checked faithfully (the others depend on its
 * effect): eth_call for its revert, eth_estimateGas for its gas.
 */
async function simulateFirstStep(chain: Chain, from: Address, calls: SimulationCall[]): Promise<{ block: bigint; steps: SimulatedStep[] }> {
  const [first, ...rest] = calls
  const block = await chain.client.getBlockNumber()
  const call = { account: from, to: first!.to, data: first!.data, value: first!.value, blockNumber: block }
  let head: SimulatedStep
  try {
    await chain.client.call(call)
    const gasUsed = await chain.client.estimateGas(call)
    head = { ...notSimulated(first!, 0), ok: true, gasUsed }
  } catch (error) {
    const rpc = rpcErrorOf(error)
    // A revert, or a call the node would not run (funds); anything else is the RPC failing.
    if (!rpc || !(rpc.code === 3 || /revert/i.test(rpc.message) || isValidationError(rpc))) throw error
    const data = typeof rpc.data === 'string' ? rpc.data : undefined
    head = { ...notSimulated(first!, 0), ok: false, revertReason: decodeRevertReason(data, rpc.message), revertData: (data as `0x${string}` | undefined) ?? null }
  }
  return { block, steps: [head, ...rest.map((c, i) => notSimulated(c, i + 1))] }
}

/**
 * Simulates a plan's transactions as `from` would send them now, in order, on the latest block:
 * per step success or the decoded revert, the gas, and the tokens and ETH it moves; then whether
 * the wallet can pay for it all. eth_simulateV1 when the RPC serves it (the devnet does, MegaETH's
 * nodes do), else the first step alone (method `eth_call`). Three requests, in parallel.
 */
export async function simulatePlan(chain: Chain, from: Address, calls: SimulationCall[]): Promise<PlanSimulation> {
  const symbols = tokenSymbols(chain.contracts)
  const run = async () => {
    if ((unsupportedUntil.get(chain) ?? 0) > Date.now()) return { method: 'eth_call' as const, ...(await simulateFirstStep(chain, from, calls)) }
    try {
      return { method: 'eth_simulateV1' as const, ...(await simulateSteps(chain, from, calls, symbols)) }
    } catch (error) {
      const rpc = rpcErrorOf(error)
      if (!rpc || !isUnsupported(rpc)) throw error
      unsupportedUntil.set(chain, Date.now() + UNSUPPORTED_RETRY_MS)
      return { method: 'eth_call' as const, ...(await simulateFirstStep(chain, from, calls)) }
    }
  }
  try {
    const [sim, balance, gasPrice] = await Promise.all([run(), chain.client.getBalance({ address: from }), chain.client.getGasPrice()])
    return summarizeSimulation({ ...sim, from, calls, balance, gasPrice })
  } catch (error) {
    throw rpcFailed('simulating the plan', error)
  }
}
