/**
 * The whole looksmaxx through the public API: plan (quote), swap if tokens are missing, the two
 * burn transfers, the x402 payment, the submission and its status. Burns already made can be
 * passed back (--burn-tx, --dev-tx) so a failed submission is retried without burning again.
 */
import { open, stat } from 'node:fs/promises'
import { formatEther, formatUnits, parseEther } from 'viem'
import { ApiError } from '../api.ts'
import { UsageError } from '../errors.ts'
import { signExactPayment, type PaymentRequirement } from '../pay.ts'
import { commandLine, type Session } from '../session.ts'
import { WalletError, tokens } from '../wallet.ts'
import { checkSpend } from '../spend.ts'
import { publishedReceiptKey, verifyReceipts } from '../receipts.ts'

const MAX_IMAGE_BYTES = 4 * 1024 * 1024
const TOKEN_DECIMALS = 18

/** The type the file's first bytes say it is, as the service checks (docs/agents/looksmaxx.md, The image checks). */
export function sniffImageType(bytes: Uint8Array): 'image/jpeg' | 'image/png' | 'image/webp' | undefined {
  const b = Buffer.from(bytes)
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg'
  if (b.length >= 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png'
  if (b.length >= 12 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP') return 'image/webp'
  return undefined
}

/**
 * Reads the portrait and refuses, before any transaction, a file the service would refuse:
 * missing, over 4 MB, or not a JPEG, PNG or WebP by its content (whatever its name says).
 */
export async function readPortrait(file: string) {
  const info = await stat(file).catch(() => null)
  if (!info?.isFile()) throw new UsageError(`--image ${file}: no such file`, 'INVALID_IMAGE')
  if (info.size > MAX_IMAGE_BYTES) throw new UsageError(`--image ${file}: ${(info.size / 1048576).toFixed(1)} MB, the service takes at most 4 MB`, 'INVALID_IMAGE')
  const handle = await open(file)
  const bytes = await handle.readFile().finally(() => handle.close())
  const type = sniffImageType(bytes)
  if (!type) throw new UsageError(`--image ${file}: not a JPEG, PNG or WebP image (its first bytes are none of theirs); nothing was sent`, 'INVALID_IMAGE')
  return { base64: bytes.toString('base64'), type }
}


/**
 * Refuses a swap that cannot cover the tokens the burns need, before the first transaction:
 * the plan's swap guarantees its amountOutMinimum (the quote less the slippage allowance), so
 * that plus the balance must reach 225,000. The ETH that is enough comes from the plan
 * without --eth (the service prices exactly the missing tokens).
 */
async function checkSwapCovers(s: Session, plan: any, wallet: string, eth: string | undefined) {
  const swap = plan.steps[0]
  if (swap.skip) return
  if (!swap.transaction?.data) throw new WalletError('NO_QUOTE', `${swap.description} Nothing was sent.`)
  const minimum = swap.transaction.args?.[0]?.amountOutMinimum
  if (minimum === undefined) throw new WalletError('NO_QUOTE', 'the plan\'s swap has no amountOutMinimum, so whether it covers the burns cannot be checked. Nothing was sent.')
  const minOut = BigInt(minimum)
  const neededWei = BigInt(Math.ceil(plan.currentState.tokensNeeded)) * 10n ** BigInt(TOKEN_DECIMALS)
  const value = BigInt(swap.transaction.value ?? 0)
  if (minOut < neededWei) {
    const enough = eth === undefined ? undefined : (await s.api.get('/api/agent/looksmaxx', { wallet })).body.steps[0]?.transaction?.value
    const what = `a swap of ${formatEther(value)} ETH guarantees ${tokens(minOut)} tokens (the quote less the slippage allowance) and the wallet needs ${tokens(neededWei)} more for the 225,000 a portrait burns`
    if (enough) {
      // Rounded up to a micro-ether, so the figure stays enough and short enough to type.
      const micro = 10n ** 12n
      const eth6 = formatEther(((BigInt(enough) + micro - 1n) / micro) * micro)
      throw new UsageError(`--eth ${eth} is not enough: ${what}. Nothing was sent. ${eth6} ETH is enough at today's price: pass --eth ${eth6}, or leave --eth out to buy exactly what is missing.`, 'INSUFFICIENT_ETH_AMOUNT')
    }
    throw new WalletError('SWAP_TOO_SMALL', `${what}. Nothing was sent; the price may have moved: run looksmaxx again.`)
  }
  if (Number(plan.currentState.ethBalance) < Number(formatEther(value))) {
    throw new WalletError('INSUFFICIENT_ETH', `the swap needs ${formatEther(value)} ETH and ${wallet} holds ${plan.currentState.ethBalance}. Nothing was sent.`)
  }
}

/** The plan refuses an --eth whose swap cannot cover the burns, with the ETH that does: said as the option's mistake. */
function tooLittleEth(error: unknown, eth: string | undefined): never {
  const details = (error instanceof ApiError ? (error.body as { error?: { details?: { field?: string; ethNeeded?: string } } })?.error?.details : undefined) ?? {}
  if (!(error instanceof ApiError) || error.code !== 'INVALID_AMOUNT' || details.field !== 'ethAmount' || eth === undefined) throw error
  // Rounded up to a micro-ether, so the figure stays enough and short enough to type.
  const micro = 10n ** 12n
  const enough = details.ethNeeded ? formatEther(((parseEther(details.ethNeeded) + micro - 1n) / micro) * micro) : undefined
  throw new UsageError(
    `--eth ${eth} is not enough: ${error.message} Nothing was sent.${enough ? ` ${enough} ETH is enough at today's price: pass --eth ${enough}, or leave --eth out to buy exactly what is missing.` : ''}`,
    'INSUFFICIENT_ETH_AMOUNT',
  )
}

export async function looksmaxx(s: Session, opts: { image: string; eth?: string; burnTx?: string; devTx?: string }) {
  if ((opts.burnTx === undefined) !== (opts.devTx === undefined)) throw new UsageError('--burn-tx and --dev-tx go together (the two transfers of an earlier burn)')
  if (opts.eth !== undefined && !/^(\d+\.?\d*|\.\d+)$/.test(opts.eth)) throw new UsageError(`--eth takes an amount of ETH such as 0.5, not ${JSON.stringify(opts.eth)}`, 'INVALID_AMOUNT')
  const image = await readPortrait(opts.image)
  const wallet = await s.wallet()
  const { chainId } = await s.chain()
  s.progress.info(`Wallet ${wallet.address} (${wallet.source}), service ${s.api.url}`)

  // The fee's terms first: the spend caps are checked against the whole looksmaxx (swap and
  // fee) before the first transaction.
  const requirement = await s.progress.step(
    'Payment terms (x402)',
    async () => {
      const { body } = await s.api.get('/api/x402/looksmaxx', undefined, [402])
      const found = (body.accepts as PaymentRequirement[]).find((a) => a.scheme === 'exact')
      if (!found) throw new Error('the service offers no "exact" payment scheme')
      return found
    },
    (r) => `${formatUnits(BigInt(r.maxAmountRequired), 18)} USDm`,
  )

  let burnTxHash = opts.burnTx
  let devTxHash = opts.devTx
  // Burns made in this run are this wallet's own: a refused submission can be retried with them.
  const burnsOwn = !burnTxHash
  if (!burnTxHash || !devTxHash) {
    const plan = await s.progress.step(
      'Quote',
      async () => (await s.api.get('/api/agent/looksmaxx', { wallet: wallet.address, ethAmount: opts.eth }).catch((error) => tooLittleEth(error, opts.eth))).body,
      (p) => (p.currentState.hasEnoughTokens ? `holds ${p.currentState.coinBalance.toLocaleString('en-US')} tokens, enough` : p.steps[0].description),
    )
    await checkSwapCovers(s, plan, wallet.address, opts.eth)
    const [swap, burn, fund] = plan.steps
    const planned = { eth: swap.skip ? 0n : BigInt(swap.transaction?.value ?? 0), usdm: BigInt(requirement.maxAmountRequired) }
    await checkSpend('this looksmaxx', planned, s.caps, s.spend, wallet.address)
    if (swap.skip) s.progress.skip('Swap', swap.skipReason)
    else await s.progress.step('Swap ETH for tokens', () => s.send(swap.transaction), (r) => r.hash)
    burnTxHash = (await s.progress.step('Burn 112,500 tokens', () => s.send(burn.transaction), (r) => r.hash)).hash
    devTxHash = (await s.progress.step('Transfer 112,500 tokens to the fund', () => s.send(fund.transaction), (r) => r.hash)).hash
  } else {
    await checkSpend('this looksmaxx', { eth: 0n, usdm: BigInt(requirement.maxAmountRequired) }, s.caps, s.spend, wallet.address)
    s.progress.skip('Swap, burn and transfer', `using the burns given (${burnTxHash}, ${devTxHash})`)
  }

  const paymentPayload = await s.progress.step(
    'Sign the 1 USDm payment (x402)',
    () => signExactPayment(wallet.account, requirement, chainId),
    (p) => `authorization ${p.payload.authorization.nonce.slice(0, 10)}…`,
  )
  // Counted once signed and sent: it may settle even if the answer does not come.
  await s.spend.record(wallet.address, { usdm: BigInt(requirement.maxAmountRequired) })

  let result: any
  try {
    result = await s.progress.step(
      'Submit the portrait (verify burns, settle, generate, pin, mint)',
      async () =>
        (await s.api.post('/api/x402/looksmaxx', { burnTxHash, devTxHash, burnerAddress: wallet.address, image: image.base64, imageType: image.type, paymentPayload })).body,
      (r) => `token ${r.tokenId}`,
    )
  } catch (error) {
    if (error instanceof ApiError) {
      // A 409 (the burns are claimed, or the payment id is taken) cannot pass with the same
      // burns, nor can burns that are not this wallet's; any other refusal consumed nothing.
      if (error.status !== 409 && !(error.code === 'BURN_VERIFICATION_FAILED' && !burnsOwn)) {
        error.hints.push(`Your burns are kept; retry with: ${commandLine(['looksmaxx', '--image', error.code === 'INVALID_IMAGE' ? '<file>' : opts.image, '--burn-tx', burnTxHash, '--dev-tx', devTxHash, ...s.repeat])}`)
      }
    }
    throw error
  }

  const status = await s.progress.step(
    'Status',
    async () => (await s.api.get(`/api/x402/looksmaxx/${burnTxHash}`)).body,
    (st) => String(st.status ?? st.state ?? 'done'),
  )
  const verified = await s.progress.step(
    'Verify the receipts',
    async () => verifyReceipts(result.receipts, await publishedReceiptKey(s.api), { tokenId: result.tokenId, burnTxHash: burnTxHash!, devTxHash: devTxHash!, mintTxHash: result.mintTxHash, payer: wallet.address }),
    () => 'x402 and delivery receipts signed by the published key',
  )
  const metadataUrl = `${s.api.url}/api/metadata/${result.tokenId}`
  s.print({ ...result, metadataUrl, status, receiptsVerified: true }, [
    '',
    `Minted portrait #${result.tokenId} to ${wallet.address}`,
    `  image:    ${result.imageUrl}`,
    `  ipfs:     ${result.ipfsUrl}`,
    `  metadata: ${metadataUrl}`,
    'Receipts',
    ...verified,
    `  rate the service with them: ${commandLine(['feedback', burnTxHash!, ...s.repeat])}`,
  ])
}
