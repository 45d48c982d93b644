import { encodeAbiParameters, encodeFunctionData, keccak256, maxUint256, parseAbi, toHex, type Address, type Hex } from 'viem'
import { BURN_TOTAL_WEI, POOL_FEE } from '../../chain/constants.ts'
import { devnetAccount, roles } from '../../chain/devnet-accounts.ts'
import { MAINNET } from './mainnet-addresses.ts'
import type { Rpc } from './deploy-at-mainnet.ts'

/** The size of the history: mainnet's is at least the defaults of `npm run rehearse`. */
export type HistoryScale = { wallets: number; burns: number; nfts: number; blocks: number; swaps: number }
export const MAINNET_SCALE: HistoryScale = { wallets: 5_000, burns: 50_000, nfts: 5_000, blocks: 200_000, swaps: 2_000 }

export type FilledHistory = {
  scale: HistoryScale
  /** Transactions and events written, and the time it took. */
  transactions: number
  burnLegs: number
  swaps: number
  nftTransfers: number
  head: number
  fillMs: number
  /** The burners, in order (rehearsalWallet(i)). */
  wallets: Address[]
}

const E18 = 10n ** 18n
const BURN_GAS = toHex(120_000)
const SWAP_GAS = toHex(400_000)
const MINT_GAS = toHex(16_000_000)
const NFTS_PER_MINT = 80
/** Transactions per mined block in the busy stretches. */
const TXS_PER_BLOCK = 40
const ERC20_BALANCES_SLOT = 0n
const ERC20_ALLOWANCES_SLOT = 1n
const ERC20_SUPPLY_SLOT = 2n

const mappingSlot = (key: Address, slot: bigint | Hex): Hex =>
  keccak256(encodeAbiParameters([{ type: 'address' }, { type: typeof slot === 'bigint' ? 'uint256' : 'bytes32' }], [key, slot as never]))

/** Wallet i of the rehearsal: a fixed address no key controls (the node sends for it, impersonated). */
export const rehearsalWallet = (i: number): Address => `0x${keccak256(toHex(`rehearsal-wallet-${i}`)).slice(26)}` as Address

/**
 * Writes a history of `scale` on the rehearsal chain, after the deployment: `burns` burns
 * (both legs, from the burner, through the referral contract's plain burn()) by `wallets`
 * wallets, `nfts` portraits minted to them, `swaps` buys in the WETH/token pool, spread over
 * `blocks` blocks of one second (most empty, as on MegaETH). The wallets are impersonated and
 * funded by writing storage: the token's balance and allowance slots (OpenZeppelin ERC-20
 * layout) with the supply raised to match, so 50,000 burns of 225,000 need no 11-billion-token
 * premint and no transfers that are not burns. Transactions are batched TXS_PER_BLOCK to a
 * block with automine off; the empty stretches are one hardhat_mine each.
 */
export async function fillHistory(rpc: Rpc, scale: HistoryScale, options: { log?: (line: string) => void } = {}): Promise<FilledHistory> {
  const started = performance.now()
  const wallets = Array.from({ length: scale.wallets }, (_, i) => rehearsalWallet(i))
  const burnsOf = wallets.map((_, i) => Math.floor(scale.burns / scale.wallets) + (i < scale.burns % scale.wallets ? 1 : 0))
  const token = MAINNET.token
  // Balances and allowances by storage: enough for each wallet's burns, the referral contract approved.
  let minted = 0n
  for (const [i, wallet] of wallets.entries()) {
    const balance = BigInt(burnsOf[i]!) * BURN_TOTAL_WEI
    minted += balance
    await rpc('hardhat_setStorageAt', [token, mappingSlot(wallet, ERC20_BALANCES_SLOT), toHex(balance, { size: 32 })])
    await rpc('hardhat_setStorageAt', [token, mappingSlot(MAINNET.referral, mappingSlot(wallet, ERC20_ALLOWANCES_SLOT)), toHex(maxUint256, { size: 32 })])
    await rpc('hardhat_setBalance', [wallet, toHex(10n * E18)])
    await rpc('hardhat_impersonateAccount', [wallet])
  }
  const supply = BigInt((await rpc('eth_getStorageAt', [token, toHex(ERC20_SUPPLY_SLOT, { size: 32 }), 'latest'])) as string)
  await rpc('hardhat_setStorageAt', [token, toHex(ERC20_SUPPLY_SLOT, { size: 32 }), toHex(supply + minted, { size: 32 })])

  // The work, in a deterministic interleaving: burns round-robin over the wallets, a swap every so often.
  type Tx = { from: Address; to: Address; data: Hex; gas: Hex; value?: Hex }
  const burnData = encodeFunctionData({ abi: parseAbi(['function burn()']), functionName: 'burn' })
  const swapAbi = parseAbi(['function exactInputSingle((address tokenIn,address tokenOut,uint24 fee,address recipient,uint256 amountIn,uint256 amountOutMinimum,uint160 sqrtPriceLimitX96)) payable returns (uint256)'])
  const mintAbi = parseAbi(['function mintBatch(address[],uint256[],string)'])
  const txs: Tx[] = []
  const deployer = devnetAccount(roles.deployer).address
  for (let first = 0; first < scale.nfts; first += NFTS_PER_MINT) {
    const tos = Array.from({ length: Math.min(NFTS_PER_MINT, scale.nfts - first) }, (_, k) => wallets[(first + k) % wallets.length]!)
    const data = encodeFunctionData({ abi: mintAbi, functionName: 'mintBatch', args: [tos, tos.map(() => 1n), 'ipfs://bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku'] })
    txs.push({ from: deployer, to: MAINNET.nft, data, gas: MINT_GAS })
  }
  const swapEvery = scale.swaps > 0 ? Math.max(1, Math.floor(scale.burns / scale.swaps)) : Infinity
  let swaps = 0
  const pending = [...burnsOf]
  for (let b = 0, w = 0; b < scale.burns; w = (w + 1) % wallets.length) {
    if (pending[w]! === 0) continue
    pending[w]!--
    txs.push({ from: wallets[w]!, to: MAINNET.referral, data: burnData, gas: BURN_GAS })
    b++
    if (b % swapEvery === 0 && swaps < scale.swaps) {
      const from = wallets[(b * 7) % wallets.length]!
      const amountIn = E18 / 100n + BigInt(b % 50) * (E18 / 1000n)
      const data = encodeFunctionData({ abi: swapAbi, functionName: 'exactInputSingle', args: [{ tokenIn: MAINNET.weth, tokenOut: token, fee: POOL_FEE, recipient: from, amountIn, amountOutMinimum: 0n, sqrtPriceLimitX96: 0n }] })
      txs.push({ from, to: MAINNET.swapRouter, data, gas: SWAP_GAS, value: toHex(amountIn) })
      swaps++
    }
  }

  // Blocks: busy ones of TXS_PER_BLOCK transactions, evenly spread; one-second empty blocks between.
  const busy = Math.ceil(txs.length / TXS_PER_BLOCK)
  const emptyBlocks = Math.max(0, scale.blocks - busy)
  const gap = busy > 0 ? Math.floor(emptyBlocks / busy) : 0
  let timestamp = Number(((await rpc('eth_getBlockByNumber', ['latest', false])) as { timestamp: string }).timestamp)
  await rpc('evm_setAutomine', [false])
  const hashes: Hex[] = []
  try {
    for (let block = 0; block < busy; block++) {
      if (gap > 0) {
        await rpc('hardhat_mine', [toHex(gap), toHex(1)])
        // hardhat_mine stamps its first block from the node's clock, not the last block's time + 1.
        timestamp = Number(((await rpc('eth_getBlockByNumber', ['latest', false])) as { timestamp: string }).timestamp)
      }
      for (const tx of txs.slice(block * TXS_PER_BLOCK, (block + 1) * TXS_PER_BLOCK)) hashes.push((await rpc('eth_sendTransaction', [tx])) as Hex)
      timestamp += 1
      await rpc('evm_setNextBlockTimestamp', [toHex(timestamp)])
      await rpc('evm_mine', [])
      if (block % 200 === 0) options.log?.(`history: block ${block + 1} of ${busy} busy blocks (${hashes.length} of ${txs.length} transactions)`)
    }
    const rest = scale.blocks - busy - gap * busy
    if (rest > 0) await rpc('hardhat_mine', [toHex(rest), toHex(1)])
  } finally {
    await rpc('evm_setAutomine', [true])
  }
  // Every transaction must have succeeded: a sample of receipts, and the last ones of each kind.
  for (const hash of [...hashes.filter((_, i) => i % 997 === 0), ...hashes.slice(-5)]) {
    const receipt = (await rpc('eth_getTransactionReceipt', [hash])) as { status: string } | null
    if (receipt?.status !== '0x1') throw new Error(`history transaction ${hash} failed`)
  }
  for (const wallet of wallets) await rpc('hardhat_stopImpersonatingAccount', [wallet])
  const head = Number(await rpc('eth_blockNumber', []))
  return {
    scale,
    transactions: txs.length,
    burnLegs: scale.burns * 2,
    swaps,
    nftTransfers: scale.nfts,
    head,
    fillMs: Math.round(performance.now() - started),
    wallets,
  }
}
