import { before } from 'node:test'
import assert from 'node:assert/strict'
import {
  BaseError, createPublicClient, createWalletClient, decodeErrorResult, erc20Abi, http, parseAbi, type Hex,
} from 'viem'
import { type PrivateKeyAccount } from 'viem/accounts'
import { useDevnet, type TestDevnet } from '../support/harness.ts'
import { createChain, createViemChain, type Chain } from '../../src/chain/clients.ts'
import type { PlanResult, PlanStep } from '../../src/chain/builders/plan.ts'
import { testAccount } from '../support/accounts.ts'

export const E18 = 10n ** 18n
export const DAY = 86_400

/**
 * The process's devnet (test/support/harness.ts) for a DeFi test file, with the helpers of
 * `defiDevnet`, ready from the file's first `before`.
 */
export function useDefiDevnet(): DefiDevnet {
  const devnet = useDevnet()
  const fixture = {} as DefiDevnet
  before(() => {
    Object.assign(fixture, defiDevnet(devnet))
  })
  return fixture
}

/**
 * A devnet for the DeFi tests, with wallets that send builder plans step by step (signing
 * locally, as a user's wallet does), revert probes, and time travel.
 */
export function defiDevnet(devnet: TestDevnet) {
  const viemChain = createViemChain(devnet.url, 'https://megaexplorer.xyz', devnet.info.contracts.multicall3)
  const client = createPublicClient({ chain: viemChain, transport: http(devnet.url) })
  const chain: Chain = createChain({
    rpcUrl: devnet.url, publicRpcUrl: devnet.url, explorerUrl: 'https://megaexplorer.xyz',
    contracts: devnet.info.contracts, fundWallet: devnet.info.accounts.fundWallet, facilitator: devnet.info.accounts.facilitator,
  })
  const accounts = new Map<number, PrivateKeyAccount>()
  const account = (i: number) => {
    let a = accounts.get(i)
    if (!a) accounts.set(i, (a = testAccount(i).account))
    return a
  }
  const address = (i: number) => account(i).address
  const wallet = (i: number) => createWalletClient({ chain: viemChain, transport: http(devnet.url), account: account(i) })
  const rpc = async (method: string, params: unknown[] = []) => client.request({ method, params } as never) as Promise<unknown>

  /** Sends one step and returns its receipt; fails the test if it reverts. */
  async function send(i: number, step: Pick<PlanStep, 'to' | 'data' | 'value'>) {
    const hash = await wallet(i).sendTransaction({ to: step.to, data: step.data, value: BigInt(step.value) })
    const receipt = await client.waitForTransactionReceipt({ hash })
    assert.equal(receipt.status, 'success', `step to ${step.to} reverted`)
    return receipt
  }

  /** Sends a builder's plan transaction by transaction, as a wallet would. */
  async function sendPlan(i: number, result: PlanResult) {
    assert.ok(result.ok, result.ok ? '' : `plan refused: ${result.reason}: ${result.message}`)
    const receipts = []
    for (const step of result.plan) receipts.push(await send(i, step))
    return receipts
  }

  /**
   * The revert reason of a step that must fail (its Error(string) reason), proven twice: by
   * eth_call, then by mining it with fixed gas and seeing status 'reverted'.
   */
  async function revertOf(i: number, step: Pick<PlanStep, 'to' | 'data' | 'value'>, errorAbi: readonly unknown[] = []): Promise<string> {
    let reason: string | undefined
    try {
      await client.call({ account: account(i), to: step.to, data: step.data, value: BigInt(step.value) })
    } catch (error) {
      // The revert data rides on the JSON-RPC error (code 3, data = the ABI-encoded revert).
      const withData = error instanceof BaseError ? error.walk((e) => typeof (e as { data?: unknown }).data === 'string') : undefined
      const data = (withData as { data?: Hex } | undefined)?.data
      if (!data) throw error
      const decoded = decodeErrorResult({ abi: errorAbi as never, data })
      reason = decoded.errorName === 'Error' ? String(decoded.args?.[0]) : `${decoded.errorName}(${(decoded.args ?? []).join(',')})`
    }
    if (reason === undefined) assert.fail(`the call to ${step.to} did not revert`)
    const hash = await wallet(i).sendTransaction({ to: step.to, data: step.data, value: BigInt(step.value), gas: 3_000_000n })
    assert.equal((await client.waitForTransactionReceipt({ hash })).status, 'reverted')
    return reason
  }

  const balance = (token: `0x${string}`, owner: `0x${string}`) => client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [owner] })
  const now = async () => (await client.getBlock()).timestamp
  /** Moves the chain clock forward and mines a block there. */
  async function travel(seconds: number) {
    await rpc('evm_increaseTime', [seconds])
    await rpc('evm_mine', [])
  }
  const snapshot = async () => (await rpc('evm_snapshot')) as string
  const revert = async (id: string) => assert.equal(await rpc('evm_revert', [id]), true)

  /** As the NFT's minter (account 0): `count` looksmaxx NFTs to `to`. */
  async function mintNfts(to: `0x${string}`, count: bigint) {
    const abi = parseAbi(['function mintBatch(address[],uint256[],string)'])
    const hash = await wallet(0).writeContract({ address: devnet.info.contracts.nft, abi, functionName: 'mintBatch', args: [[to], [count], 'https://megachad.xyz/api/metadata/test'] })
    await client.waitForTransactionReceipt({ hash })
  }
  /** From the deployer: ERC-20 tokens to `to`. */
  async function fund(token: `0x${string}`, to: `0x${string}`, amount: bigint) {
    const hash = await wallet(0).writeContract({ address: token, abi: erc20Abi, functionName: 'transfer', args: [to, amount] })
    await client.waitForTransactionReceipt({ hash })
  }

  return { devnet, client, chain, account, address, wallet, rpc, send, sendPlan, revertOf, balance, now, travel, snapshot, revert, mintNfts, fund }
}

export type DefiDevnet = ReturnType<typeof defiDevnet>
