/**
 * The CLI's wallet: a local private key, viem clients on the RPC the service advertises, and
 * the two things the CLI does with them: send a transaction the API built (and wait for its
 * receipt), and sign typed data the API described.
 */
import { createPublicClient, createWalletClient, defineChain, http, isHex, type Hex, type LocalAccount } from 'viem'
import { mnemonicToAccount, privateKeyToAccount } from 'viem/accounts'

/** The devnet's well-known mnemonic (README: Devnet accounts); never valid on a real chain. */
export const DEVNET_MNEMONIC = 'test test test test test test test test test test test junk'
/** Devnet account 5: an agent with ETH and 1,000 USDm and no service tokens, the full flow. */
export const DEFAULT_DEVNET_ACCOUNT = 5

export type ChainInfo = { name: string; chainId: number; rpc: string }

/** A transaction as the API's plans and builders return it. */
export type PlannedTx = { to?: string; data?: string; value?: string | number | null; functionName?: string; description?: string }

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
 * devnet) the default devnet account. Refuses to guess on a real chain.
 */
export function resolveAccount(opts: { key?: string; account?: string; chain: ChainInfo }): { account: LocalAccount; source: string } {
  if (opts.key) {
    const key = opts.key.startsWith('0x') ? opts.key : `0x${opts.key}`
    if (!isHex(key) || key.length !== 66) throw new WalletError('INVALID_KEY', 'the private key must be 32 bytes of hex (64 hex digits, 0x optional)')
    return { account: privateKeyToAccount(key as Hex), source: 'your key' }
  }
  const local = isLocalRpc(opts.chain.rpc)
  if (opts.account !== undefined) {
    const index = Number(opts.account)
    if (!Number.isInteger(index) || index < 0) throw new WalletError('INVALID_ACCOUNT', '--account takes a devnet account index (0, 1, 2, ...)')
    if (!local) throw new WalletError('NOT_A_DEVNET', `--account uses the devnet's public mnemonic, and ${opts.chain.rpc} is not a local devnet; pass --key or BURN_TO_CREATE_KEY`)
    return { account: mnemonicToAccount(DEVNET_MNEMONIC, { addressIndex: index }), source: `devnet account ${index}` }
  }
  if (local) return { account: mnemonicToAccount(DEVNET_MNEMONIC, { addressIndex: DEFAULT_DEVNET_ACCOUNT }), source: `devnet account ${DEFAULT_DEVNET_ACCOUNT}` }
  throw new WalletError('NO_KEY', 'no key: set BURN_TO_CREATE_KEY or pass --key (the service is not on a local devnet, so there is no default account)')
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
      hash = await walletClient.sendTransaction({
        account,
        chain,
        to: tx.to as Hex,
        data: (tx.data ?? '0x') as Hex,
        value: BigInt(tx.value ?? 0),
      })
    } catch (cause) {
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
