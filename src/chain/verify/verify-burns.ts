import { decodeEventLog, isAddressEqual, type Log } from 'viem'
import { BURN_ADDRESS, BURN_HALF_WEI } from '../constants.ts'
import { tokenTransferAbi as transferAbi } from '../abis/token.ts'
import { referralAbi as referralBurnAbi } from '../abis/economy.ts'

/** What verification needs of a receipt: status, block and logs. */
export type BurnReceipt = {
  transactionHash: `0x${string}`
  status: 'success' | 'reverted'
  blockNumber: bigint
  logs: Pick<Log, 'address' | 'topics' | 'data'>[]
}

export type BurnCheckInput = {
  burnReceipt: BurnReceipt
  devReceipt: BurnReceipt
  burner: `0x${string}`
  token: `0x${string}`
  fundWallet: `0x${string}`
  referralContract?: `0x${string}`
  /** Latest block number and the block timestamps of both receipts, in seconds. */
  latestBlock: bigint
  blockTimestamps: Map<bigint, bigint>
  confirmations: number
  maxAgeSeconds: number
  nowSeconds: bigint
}

export type BurnCheck =
  | { ok: true; burned: bigint; funded: bigint; referrer?: `0x${string}`; referralReward: bigint }
  | { ok: false; reason: string }

type Transfer = { from: `0x${string}`; to: `0x${string}`; value: bigint }

function tokenTransfers(receipt: BurnReceipt, token: `0x${string}`): Transfer[] {
  const transfers: Transfer[] = []
  for (const log of receipt.logs) {
    // ERC-20 Transfer has three topics; an ERC-721 Transfer (same topic0) has four.
    if (!isAddressEqual(log.address, token) || log.topics.length !== 3) continue
    try {
      const { args } = decodeEventLog({ abi: transferAbi, data: log.data, topics: log.topics as [`0x${string}`, ...`0x${string}`[]] })
      transfers.push(args as Transfer)
    } catch {
      // not a Transfer
    }
  }
  return transfers
}

function referralBurn(receipt: BurnReceipt, referral: `0x${string}` | undefined, burner: `0x${string}`) {
  if (!referral) return undefined
  for (const log of receipt.logs) {
    if (!isAddressEqual(log.address, referral)) continue
    try {
      const { args } = decodeEventLog({ abi: referralBurnAbi, data: log.data, topics: log.topics as [`0x${string}`, ...`0x${string}`[]] })
      if (isAddressEqual(args.burner, burner)) return args
    } catch {
      // another event of the referral contract
    }
  }
  return undefined
}

const tokens = (wei: bigint) => (Number(wei / 10n ** 14n) / 10_000).toLocaleString('en-US')

/**
 * Checks that the two transactions prove a looksmaxx burn by `burner`: at least 112,500
 * tokens to the dead address and at least 112,500 to the fund wallet (less the agent's
 * reward when the burn went through the referral contract), in successful transactions that
 * are deep and recent enough. Every log is considered, not only the first match.
 */
export function verifyBurns(input: BurnCheckInput): BurnCheck {
  const { burnReceipt, devReceipt, burner } = input
  for (const [role, receipt] of [['burn', burnReceipt], ['dev', devReceipt]] as const) {
    if (receipt.status !== 'success') return { ok: false, reason: `The ${role} transaction ${receipt.transactionHash} reverted.` }
    const depth = input.latestBlock - receipt.blockNumber + 1n
    if (depth < BigInt(input.confirmations)) {
      return {
        ok: false,
        reason: `The ${role} transaction has ${depth} confirmation(s); ${input.confirmations} are required. Retry shortly.`,
      }
    }
    const timestamp = input.blockTimestamps.get(receipt.blockNumber)
    if (timestamp === undefined || input.nowSeconds - timestamp > BigInt(input.maxAgeSeconds)) {
      return {
        ok: false,
        reason: `The ${role} transaction is older than ${input.maxAgeSeconds} seconds: only recent burns can be redeemed.`,
      }
    }
  }

  const burned = tokenTransfers(burnReceipt, input.token)
    .filter((t) => isAddressEqual(t.from, burner) && isAddressEqual(t.to, BURN_ADDRESS))
    .reduce((max, t) => (t.value > max ? t.value : max), 0n)
  if (burned < BURN_HALF_WEI) {
    return {
      ok: false,
      reason: `Burn transaction ${burnReceipt.transactionHash} moves ${tokens(burned)} tokens from ${burner} to ${BURN_ADDRESS}; expected at least ${tokens(BURN_HALF_WEI)}.`,
    }
  }

  const referral = referralBurn(devReceipt, input.referralContract, burner)
  const reward = referral?.referralReward ?? 0n
  const funded = tokenTransfers(devReceipt, input.token)
    .filter((t) => isAddressEqual(t.from, burner) && isAddressEqual(t.to, input.fundWallet))
    .reduce((max, t) => (t.value > max ? t.value : max), 0n)
  // The referral contract pays the agent out of the fund's half: the two together must cover it.
  const rewardPaid =
    referral &&
    tokenTransfers(devReceipt, input.token).some(
      (t) => isAddressEqual(t.from, burner) && isAddressEqual(t.to, referral.referrer) && t.value === reward,
    )
  const required = rewardPaid ? BURN_HALF_WEI - reward : BURN_HALF_WEI
  if (funded < required) {
    return {
      ok: false,
      reason: `Dev transaction ${devReceipt.transactionHash} moves ${tokens(funded)} tokens from ${burner} to the fund wallet ${input.fundWallet}; expected at least ${tokens(required)}.`,
    }
  }
  return rewardPaid
    ? { ok: true, burned, funded, referrer: referral.referrer, referralReward: reward }
    : { ok: true, burned, funded, referralReward: 0n }
}
