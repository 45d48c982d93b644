import {
  EdrContext, L1_CHAIN_TYPE, l1GenesisState, l1HardforkFromString, l1ProviderFactory, ContractDecoder, MineOrdering,
  type Provider,
} from '@nomicfoundation/edr'
import { DEVNET_BALANCE_WEI, devnetAccounts } from '../chain/devnet-accounts.ts'

export const DEVNET_CHAIN_ID = 4326n
const HARDFORK = 'osaka'
const BLOCK_GAS_LIMIT = 60_000_000n

let context: Promise<EdrContext> | undefined

/** EDR allows one context per process; providers share it. */
function edrContext(): Promise<EdrContext> {
  context ??= (async () => {
    const ctx = new EdrContext()
    await ctx.registerProviderFactory(L1_CHAIN_TYPE, l1ProviderFactory())
    return ctx
  })()
  return context
}

/** What the JSON-RPC helpers need of an EDR provider (a recording wrapper is one too). */
export type JsonRpcHandler = Pick<Provider, 'handleRequest'>

/** Hex to bytes without loading viem: the replayed devnet boots without it. */
const hexToBytes = (hex: string) => Uint8Array.from(Buffer.from(hex.slice(2), 'hex'))

export type JsonRpcError = { code: number; message: string; data?: unknown }
export type Eip1193 = { request(args: { method: string; params?: unknown[] }): Promise<unknown> }

/**
 * An EDR chain with ID 4326 whose blocks follow the wall clock: automine with blocks allowed
 * to share a timestamp, so a burst of transactions never pushes block time ahead of real time
 * (x402 windows and relay deadlines are signed against real time). `genesisBlockTime` (seconds)
 * starts the chain in the past: the DeFi seed replays history and then catches up with the
 * wall clock (src/devnet/deploy-defi.ts).
 */
export async function createEdrProvider(options: { genesisBlockTime?: number } = {}): Promise<Provider> {
  const ctx = await edrContext()
  const accounts = devnetAccounts()
  return ctx.createProvider(
    L1_CHAIN_TYPE,
    {
      allowBlocksWithSameTimestamp: true,
      allowUnlimitedContractSize: false,
      bailOnCallFailure: true,
      bailOnTransactionFailure: false,
      chainId: DEVNET_CHAIN_ID,
      coinbase: hexToBytes('0xc014ba5ec014ba5ec014ba5ec014ba5ec014ba5e'),
      defaultTransactionGasLimit: 16_777_216n,
      genesisState: [
        ...accounts.map((a) => ({ address: hexToBytes(a.address), balance: DEVNET_BALANCE_WEI })),
        ...l1GenesisState(l1HardforkFromString(HARDFORK)),
      ],
      hardfork: HARDFORK,
      initialBaseFeePerGas: 1_000_000_000n,
      minGasPrice: 0n,
      mining: { autoMine: true, blockGasLimit: BLOCK_GAS_LIMIT, memPool: { order: MineOrdering.Priority } },
      network: {
        genesisBlockGasLimit: BLOCK_GAS_LIMIT,
        ...(options.genesisBlockTime === undefined ? {} : { genesisBlockTime: BigInt(options.genesisBlockTime) }),
      },
      networkId: DEVNET_CHAIN_ID,
      observability: {},
      ownedAccounts: accounts.map((a) => a.privateKey),
      precompileOverrides: [],
    },
    { enable: false, decodeConsoleLogInputsCallback: () => [], printLineCallback: () => {} },
    { subscriptionCallback: () => {} },
    new ContractDecoder(),
  )
}

/**
 * Blocks share a timestamp within a second, and some contracts cost more in the first
 * transaction of a new timestamp: a Uniswap V3 swap writes its oracle observation then (about
 * 20k gas); an unstake right after a claim writes the reward accrued since into a slot the claim
 * left at zero (about 29k more: 84k estimated in the claim's second, 114k needed in the next).
 * An estimate taken in one second and mined in the next runs out of gas, and viem sends the
 * bare estimate. The margin covers that, as wallets' own margins do on real chains: a share of
 * the estimate, and a fixed part for the small calls whose share is less than one slot written
 * from zero. Unused gas is refunded.
 */
export const ESTIMATE_MARGIN_PERCENT = 30n
export const ESTIMATE_MARGIN_GAS = 25_000n

function withEstimateMargin(result: unknown): unknown {
  if (typeof result !== 'string' || !/^0x[0-9a-f]+$/i.test(result)) return result
  const padded = (BigInt(result) * (100n + ESTIMATE_MARGIN_PERCENT)) / 100n + ESTIMATE_MARGIN_GAS
  return `0x${(padded < BLOCK_GAS_LIMIT ? padded : BLOCK_GAS_LIMIT).toString(16)}`
}

/**
 * One JSON-RPC call on the provider, with EDR's revert errors reshaped like geth's
 * (`code 3`, `execution reverted…`, `data`), which is what clients such as viem decode,
 * and gas estimates given the margin above.
 */
export async function callProvider(provider: JsonRpcHandler, method: string, params: unknown[] = []): Promise<{ result?: unknown; error?: JsonRpcError }> {
  const response = await provider.handleRequest(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }))
  const body = (typeof response.data === 'string' ? JSON.parse(response.data) : response.data) as { result?: unknown; error?: JsonRpcError }
  if (!body.error) return { result: method === 'eth_estimateGas' ? withEstimateMargin(body.result) : body.result }
  const error = body.error
  const revert = error.data as { data?: string; reason?: unknown } | undefined
  if (error.code === -32000 && /revert/i.test(error.message) && revert && typeof revert === 'object' && 'data' in revert) {
    const reason = error.message.replace(/^VM Exception while processing transaction: /, '').replace(/^reverted with /, '')
    return { error: { code: 3, message: `execution reverted: ${reason}`, data: revert.data } }
  }
  return { error }
}

/** An EIP-1193 view of the provider, for viem's `custom()` transport inside this process. */
export function eip1193(provider: JsonRpcHandler): Eip1193 {
  return {
    async request({ method, params }) {
      const { result, error } = await callProvider(provider, method, params ?? [])
      if (error) throw Object.assign(new Error(error.message), { code: error.code, data: error.data })
      return result
    },
  }
}
