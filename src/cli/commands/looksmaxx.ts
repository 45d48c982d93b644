/**
 * The whole looksmaxx through the public API: plan (quote), swap if tokens are missing, the two
 * burn transfers, the x402 payment, the submission and its status. Burns already made can be
 * passed back (--burn-tx, --dev-tx) so a failed submission is retried without burning again.
 */
import { readFile, stat } from 'node:fs/promises'
import path from 'node:path'
import { ApiError } from '../api.ts'
import { signExactPayment, type PaymentRequirement } from '../pay.ts'
import type { Session } from '../session.ts'

const MAX_IMAGE_BYTES = 4 * 1024 * 1024
const TYPES: Record<string, string> = { '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.png': 'image/png', '.webp': 'image/webp' }

export class UsageError extends Error {}

export async function readPortrait(file: string) {
  const type = TYPES[path.extname(file).toLowerCase()]
  if (!type) throw new UsageError(`${file}: the portrait must be a .jpg, .jpeg, .png or .webp file`)
  const info = await stat(file).catch(() => null)
  if (!info?.isFile()) throw new UsageError(`${file}: no such file`)
  if (info.size > MAX_IMAGE_BYTES) throw new UsageError(`${file}: ${(info.size / 1048576).toFixed(1)} MB, the service takes at most 4 MB`)
  return { base64: (await readFile(file)).toString('base64'), type }
}

export async function looksmaxx(s: Session, opts: { image: string; eth?: string; burnTx?: string; devTx?: string }) {
  if ((opts.burnTx === undefined) !== (opts.devTx === undefined)) throw new UsageError('--burn-tx and --dev-tx go together (the two transfers of an earlier burn)')
  const image = await readPortrait(opts.image)
  const wallet = await s.wallet()
  const { chainId } = await s.chain()
  s.progress.info(`Wallet ${wallet.address} (${wallet.source}), service ${s.api.url}`)

  let burnTxHash = opts.burnTx
  let devTxHash = opts.devTx
  if (!burnTxHash || !devTxHash) {
    const plan = await s.progress.step(
      'Quote',
      async () => (await s.api.get('/api/agent/looksmaxx', { wallet: wallet.address, ethAmount: opts.eth })).body,
      (p) => (p.currentState.hasEnoughTokens ? `holds ${p.currentState.coinBalance.toLocaleString('en-US')} tokens, enough` : p.steps[0].description),
    )
    const [swap, burn, fund] = plan.steps
    if (swap.skip) s.progress.skip('Swap', swap.skipReason)
    else await s.progress.step('Swap ETH for tokens', () => wallet.send(swap.transaction), (r) => r.hash)
    burnTxHash = (await s.progress.step('Burn 112,500 tokens', () => wallet.send(burn.transaction), (r) => r.hash)).hash
    devTxHash = (await s.progress.step('Transfer 112,500 tokens to the fund', () => wallet.send(fund.transaction), (r) => r.hash)).hash
  } else {
    s.progress.skip('Swap, burn and transfer', `using the burns given (${burnTxHash}, ${devTxHash})`)
  }

  const paymentPayload = await s.progress.step(
    'Sign the 1 USDm payment (x402)',
    async () => {
      const { body } = await s.api.get('/api/x402/looksmaxx', undefined, [402])
      const requirement = (body.accepts as PaymentRequirement[]).find((a) => a.scheme === 'exact')
      if (!requirement) throw new Error('the service offers no "exact" payment scheme')
      return signExactPayment(wallet.account, requirement, chainId)
    },
    (p) => `authorization ${p.payload.authorization.nonce.slice(0, 10)}…`,
  )

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
      // The burns are on chain and nothing was consumed unless the service says so: say how to retry.
      error.message += `\nYour burns are kept: retry with --burn-tx ${burnTxHash} --dev-tx ${devTxHash}`
    }
    throw error
  }

  const status = await s.progress.step(
    'Status',
    async () => (await s.api.get(`/api/x402/looksmaxx/${burnTxHash}`)).body,
    (st) => String(st.status ?? st.state ?? 'done'),
  )
  const metadataUrl = `${s.api.url}/api/metadata/${result.tokenId}`
  s.print({ ...result, metadataUrl, status }, [
    '',
    `Minted portrait #${result.tokenId} to ${wallet.address}`,
    `  image:    ${result.imageUrl}`,
    `  ipfs:     ${result.ipfsUrl}`,
    `  metadata: ${metadataUrl}`,
  ])
}
