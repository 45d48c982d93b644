/**
 * The receipts of a looksmaxx after the fact (`receipt`), rating the service with them
 * (`feedback`), and the daily spend caps (`limits`).
 */
import { UsageError } from '../errors.ts'
import { commandLine, type Session } from '../session.ts'
import { publishedReceiptKey, verifyReceipts } from '../receipts.ts'
import { eth, parseAmount, usdm, utcDay } from '../spend.ts'
import { runPlan } from './writes.ts'

const TX_HASH = /^0x[0-9a-fA-F]{64}$/

/** A minted submission's result with its receipts, verified against the published key. */
async function verifiedResult(s: Session, burnTxHash: string | undefined, command: string) {
  if (!burnTxHash || !TX_HASH.test(burnTxHash)) throw new UsageError(`${command} needs the burn transaction hash of a looksmaxx: ${command} 0x<64 hex digits>`)
  const status = (await s.api.get(`/api/x402/looksmaxx/${burnTxHash}`)).body
  if (!status.done || !status.result) throw new UsageError(`the looksmaxx of ${burnTxHash} is ${status.status}, not minted yet: its receipts exist once it is`, 'NOT_MINTED')
  const result = status.result
  const key = await publishedReceiptKey(s.api)
  const payer = result.receipts?.x402?.payload?.payer
  const lines = await verifyReceipts(result.receipts, key, { tokenId: result.tokenId, burnTxHash: result.burnTxHash, devTxHash: result.devTxHash, mintTxHash: result.mintTxHash, payer })
  return { result, key, lines }
}

export async function receipt(s: Session, burnTxHash: string | undefined) {
  const { result, key, lines } = await s.progress.step('Verify the receipts', () => verifiedResult(s, burnTxHash, 'receipt'), () => 'signed by the published key')
  s.print({ burnTxHash: result.burnTxHash, tokenId: result.tokenId, signer: key, receipts: result.receipts, verified: true }, [
    '',
    `Receipts of portrait #${result.tokenId} (${result.burnTxHash})`,
    ...lines,
    `  document: ${s.api.url}/api/x402/looksmaxx/${result.burnTxHash}/receipt`,
  ])
}

export async function feedback(s: Session, burnTxHash: string | undefined, opts: { score?: string; tag?: string }) {
  if (opts.score !== undefined && !/^-?\d+$/.test(opts.score)) throw new UsageError(`--score takes an integer (0 to 100 on the starred scale), not ${JSON.stringify(opts.score)}`, 'INVALID_AMOUNT')
  // Rate only what the receipts prove was delivered.
  const { result } = await s.progress.step('Verify the receipts', () => verifiedResult(s, burnTxHash, 'feedback'), () => 'signed by the published key')
  const plan = (await s.api.get(`/api/x402/looksmaxx/${result.burnTxHash}/feedback-tx`, { value: opts.score, tag1: opts.tag })).body
  const wallet = await s.wallet()
  if (plan.sender.toLowerCase() !== wallet.address.toLowerCase()) {
    s.progress.info(`note: ${plan.sender} paid for this portrait; the feedback is sent from ${wallet.address}`)
  }
  const hashes = await runPlan(s, plan.executionPlan, 'this feedback')
  s.print({ ...plan, transactions: hashes }, [
    '',
    `Rated ERC-8004 agent #${plan.agentId} ${plan.feedback.value}${plan.feedback.valueDecimals ? `e-${plan.feedback.valueDecimals}` : ''} (${plan.feedback.tag1}) with the receipts as proof: ${hashes.at(-1)}`,
    `  proof: ${plan.feedback.feedbackURI} (keccak256 ${plan.feedback.feedbackHash})`,
  ])
}

/** `off` removes a cap; an amount sets it; absent leaves it. */
function capOption(option: string, value: string | undefined, unit: 'ETH' | 'USDm'): bigint | null | undefined {
  if (value === 'off') return null
  return parseAmount(option, value, unit)
}

export async function limits(s: Session, opts: { dailyEth?: string; dailyUsdm?: string; address?: string }) {
  const change = { eth: capOption('--daily-eth', opts.dailyEth, 'ETH'), usdm: capOption('--daily-usdm', opts.dailyUsdm, 'USDm') }
  if (change.eth !== undefined || change.usdm !== undefined) await s.spend.setCaps(change)
  const caps = await s.spend.caps()
  const address = opts.address ?? (await s.wallet()).address
  const spent = await s.spend.spentToday(address)
  s.print(
    { file: s.spend.file, day: utcDay(), dailyCaps: { eth: caps.eth?.toString() ?? null, usdm: caps.usdm?.toString() ?? null }, spentToday: { address, eth: spent.eth.toString(), usdm: spent.usdm.toString() } },
    [
      `Daily caps (${s.spend.file})`,
      `  ETH:  ${caps.eth === undefined ? 'none' : eth(caps.eth)}`,
      `  USDm: ${caps.usdm === undefined ? 'none' : usdm(caps.usdm)}`,
      `Spent today (${utcDay()}, UTC) by ${address}: ${eth(spent.eth)}, ${usdm(spent.usdm)}`,
      ...(caps.eth === undefined && caps.usdm === undefined ? [`Set them with: ${commandLine(['limits', '--daily-eth', '0.1', '--daily-usdm', '5'])}`] : []),
    ],
  )
}
