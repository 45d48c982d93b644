/** Commands that only read: price, plan, wallet, chat. */
import type { Session } from '../session.ts'

/** Token amounts as every command prints them: grouped, at most two decimals. */
export const fmt = (n: number, digits = 2) => n.toLocaleString('en-US', { maximumFractionDigits: digits })

export async function price(s: Session) {
  const { body } = await s.api.get('/api/price')
  s.print(body, [
    `1 ETH buys ${fmt(body.price.coinPerEth)} tokens (${body.price.ethPerMillionCoin ?? '?'} ETH per million)`,
    `A portrait burns ${fmt(body.burnCost.tokensRequired, 0)} tokens (about ${fmt(body.burnCost.estimatedEth, 6)} ETH) plus ${body.burnCost.infraFeeUsdm} USDm`,
  ])
}

export async function address(s: Session, given?: string): Promise<string> {
  return given ?? (await s.wallet()).address
}

export async function plan(s: Session, opts: { address?: string; eth?: string }) {
  const wallet = await address(s, opts.address)
  const { body } = await s.api.get('/api/agent/looksmaxx', { wallet, ethAmount: opts.eth })
  s.print(body, [
    `Plan for ${body.wallet}: ${fmt(body.currentState.coinBalance)} tokens, ${body.currentState.ethBalance} ETH`,
    ...body.steps.map((step: any) => `${step.step}. ${step.action}${step.skip ? ` (skipped: ${step.skipReason})` : ''}: ${step.description}`),
  ])
}

export async function wallet(s: Session, opts: { address?: string }) {
  const addr = await address(s, opts.address)
  const { body } = await s.api.get('/api/wallet', { address: addr })
  s.print(body, [
    `${body.address}`,
    `  ETH ${body.balances.eth}, tokens ${fmt(body.balances.coin)}, portraits ${body.balances.looksmaxxedNFTs}`,
    `  ${body.burnEligibility.message}`,
  ])
}

export async function chat(s: Session, message: string, opts: { address?: string }) {
  const { body } = await s.api.post('/api/agent/chat', { message, ...(opts.address ? { wallet: opts.address } : {}) })
  s.print(body, [
    body.answer,
    ...(body.actions?.length ? ['', 'Next:', ...body.actions.map((a: any) => `  ${a.label}: ${a.method} ${a.endpoint}`)] : []),
  ])
}
