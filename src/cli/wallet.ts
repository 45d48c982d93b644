/**
 * The CLI's wallet: a local private key, viem clients on the RPC the service advertises, and
 * the two things the CLI does with them: send a transaction the API built (and wait for its
 * receipt), and sign typed data the API described.
 */
import { createPublicClient, createWalletClient, decodeErrorResult, defineChain, formatUnits, http, parseAbi, type Hex, type LocalAccount } from 'viem'
import { mnemonicToAccount, privateKeyToAccount } from 'viem/accounts'

/** The devnet's well-known mnemonic (docs/agents/devnet.md, Devnet accounts); never valid on a real chain. */
export const DEVNET_MNEMONIC = 'test test test test test test test test test test test junk'
/** Devnet account 5: an agent with ETH and 1,000 USDm and no service tokens, the full flow. */
export const DEFAULT_DEVNET_ACCOUNT = 5

export type ChainInfo = { name: string; chainId: number; rpc: string }

/** A transaction as the API's plans and builders return it. */
export type PlannedTx = { to?: string; data?: string; value?: string | number | null; functionName?: string; description?: string }

/**
 * The gas a step is sent with: its estimate plus 30 % and 25,000. An estimate is made against the
 * last block, and a call mined in a later second can cost more: a Uniswap V3 swap writes its
 * price observation in the first transaction of a second, an unstake right after a claim writes
 * the reward accrued since into a slot the claim left at zero (20,000-30,000 gas more, a large
 * part of a small call's estimate: an unstake estimated at 84k needs 114k a second later). Sent
 * with the bare estimate, such a step can run out of gas and revert, its fee spent; unused gas is
 * refunded. The devnet pads its estimates the same way (src/devnet/edr-provider.ts), which this
 * client cannot import: it speaks to the service and the chain only.
 */
export const withGasHeadroom = (estimate: bigint): bigint => (estimate * 13n) / 10n + 25_000n

export class WalletError extends Error {
  constructor(readonly code: string, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'WalletError'
  }
}

/** True when the RPC is on this machine: the embedded devnet, where devnet keys are safe defaults. */
export function isLocalRpc(rpc: string): boolean {
  try {
    const host = new URL(rpc).hostname
    return host === '127.0.0.1' || host === 'localhost' || host === '[::1]'
  } catch {
    return false
  }
}

/**
 * Picks the key: an explicit key first, then a devnet account index, then (only on a local
 * devnet) the default devnet account. Refuses to guess on a real chain. Whether the devnet is
 * local is read from the RPC the service advertises (chain.rpc), not from --rpc. The key and
 * index were checked by parseGlobalOptions.
 */
export function resolveAccount(opts: { key?: Hex; account?: number; chain: ChainInfo }): { account: LocalAccount; source: string } {
  if (opts.key) return { account: privateKeyToAccount(opts.key), source: 'your key' }
  const local = isLocalRpc(opts.chain.rpc)
  if (opts.account !== undefined) {
    if (!local) throw new WalletError('NOT_A_DEVNET', `--account uses the devnet's public mnemonic, and the service's RPC ${opts.chain.rpc} is not a local devnet; pass --key or BURN_TO_CREATE_KEY`)
    return { account: mnemonicToAccount(DEVNET_MNEMONIC, { addressIndex: opts.account }), source: `devnet account ${opts.account}` }
  }
  if (local) return { account: mnemonicToAccount(DEVNET_MNEMONIC, { addressIndex: DEFAULT_DEVNET_ACCOUNT }), source: `devnet account ${DEFAULT_DEVNET_ACCOUNT}` }
  throw new WalletError('NO_KEY', `no key: set BURN_TO_CREATE_KEY or pass --key (the service's RPC ${opts.chain.rpc} is not a local devnet, so there is no default account)`)
}

/** The OpenZeppelin 5 ERC-20 errors a token transfer reverts with. */
const erc20Errors = parseAbi([
  'error ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed)',
  'error ERC20InsufficientAllowance(address spender, uint256 allowance, uint256 needed)',
])

/** Token wei (18 decimals) as a person reads it: "112,500", "6,844.97". */
export const tokens = (wei: bigint) => Number(formatUnits(wei, 18)).toLocaleString('en-US', { maximumFractionDigits: 2 })

/**
 * Explains a revert whose data is an ERC-20 balance or allowance error; viem cannot decode it
 * without the token's ABI and leaves only "an unrecognized custom error (return data: 0x…)".
 * Returns undefined for anything else.
 */
export function explainRevert(error: unknown): { code: string; message: string } | undefined {
  let data: string | undefined
  for (let e = error as { data?: unknown; message?: string; cause?: unknown } | undefined; e && !data; e = e.cause as typeof e) {
    data = typeof e.data === 'string' && /^0x[0-9a-fA-F]{8,}$/.test(e.data) ? e.data : /return data: (0x[0-9a-fA-F]{8,})/.exec(e.message ?? '')?.[1]
  }
  if (!data) return undefined
  let decoded
  try {
    decoded = decodeErrorResult({ abi: erc20Errors, data: data as Hex })
  } catch {
    return undefined
  }
  const [who, has, needed] = decoded.args
  if (decoded.errorName === 'ERC20InsufficientBalance') {
    return { code: 'INSUFFICIENT_TOKENS', message: `${who} holds ${tokens(has)} tokens and the transfer needs ${tokens(needed)} (ERC20InsufficientBalance)` }
  }
  return { code: 'INSUFFICIENT_ALLOWANCE', message: `${who} may spend ${tokens(has)} tokens and the transfer needs ${tokens(needed)} (ERC20InsufficientAllowance)` }
}

export function connectWallet(chainInfo: ChainInfo, account: LocalAccount, rpcOverride?: string) {
  const rpc = rpcOverride ?? chainInfo.rpc
  const chain = defineChain({
    id: chainInfo.chainId,
    name: chainInfo.name,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpc] } },
  })
  const publicClient = createPublicClient({ chain, transport: http(rpc) })
  const walletClient = createWalletClient({ chain, transport: http(rpc), account })

  /** Sends one planned transaction and waits for it to be mined; a revert is an error. */
  async function send(tx: PlannedTx): Promise<{ hash: Hex; blockNumber: bigint }> {
    if (!tx.to) throw new WalletError('INCOMPLETE_PLAN', `the service returned a transaction without a destination (${tx.description ?? tx.functionName ?? 'unknown step'})`)
    let hash: Hex
    try {
      const call = { account, to: tx.to as Hex, data: (tx.data ?? '0x') as Hex, value: BigInt(tx.value ?? 0) }
      const gas = withGasHeadroom(await publicClient.estimateGas(call))
      hash = await walletClient.sendTransaction({ ...call, chain, gas })
    } catch (cause) {
      const revert = explainRevert(cause)
      if (revert) throw new WalletError(revert.code, `could not send ${tx.functionName ?? 'the transaction'}: ${revert.message}`, { cause })
      throw new WalletError('SEND_FAILED', `could not send ${tx.functionName ?? 'the transaction'}: ${shortMessage(cause)}`, { cause })
    }
    const receipt = await publicClient.waitForTransactionReceipt({ hash })
    if (receipt.status !== 'success') throw new WalletError('TX_REVERTED', `${tx.functionName ?? 'transaction'} ${hash} reverted`)
    return { hash, blockNumber: receipt.blockNumber }
  }

  return { account, address: account.address, publicClient, rpc, send }
}

export type Wallet = ReturnType<typeof connectWallet>

export function shortMessage(error: unknown): string {
  const e = error as { shortMessage?: string; message?: string }
  return e?.shortMessage ?? e?.message ?? String(error)
}
