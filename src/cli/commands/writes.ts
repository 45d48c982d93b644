/** Commands that sign: gasless-burn, stake, vote. Each sends the plan the API built, in order. */
import { UsageError } from '../errors.ts'
import { commandLine, type Session } from '../session.ts'
import { WalletError, tokens, type PlannedTx } from '../wallet.ts'
import { checkSpend } from '../spend.ts'

/** Sends a plan in order, once the spend caps allow all of it. */
export async function runPlan(s: Session, plan: PlannedTx[], what: string) {
  const wallet = await s.wallet()
  await checkSpend(what, { eth: plan.reduce((sum, tx) => sum + BigInt(tx.value ?? 0), 0n), usdm: 0n }, s.caps, s.spend, wallet.address)
  const hashes: string[] = []
  for (const [i, tx] of plan.entries()) {
    const label = `${i + 1}/${plan.length} ${tx.functionName ?? 'transaction'}${tx.description ? ` (${tx.description})` : ''}`
    hashes.push((await s.progress.step(label, () => s.send(tx), (r) => r.hash)).hash)
  }
  return hashes
}

export async function gaslessBurn(s: Session) {
  const wallet = await s.wallet()
  const prepared = await s.progress.step('Prepare', async () => (await s.api.get('/api/gasless/burn', { address: wallet.address })).body, (p) => `nonce ${p.signTypedData.message.nonce}`)
  if (!prepared.balance.sufficient) {
    // The wallet's state, not the command line: exit 1, the balance written as `wallet` writes it.
    const held = tokens(BigInt(prepared.balance.balance))
    throw new WalletError('INSUFFICIENT_TOKENS', `${wallet.address} holds ${held} tokens; a burn needs 225,000 (buy them: looksmaxx, or the swap of plan)`)
  }
  if (prepared.approval.transaction) await s.progress.step('Approve the relayer (once)', () => s.send(prepared.approval.transaction), (r) => r.hash)
  const typed = prepared.signTypedData
  const signature = await wallet.account.signTypedData({
    domain: typed.domain,
    types: typed.types,
    primaryType: typed.primaryType,
    message: { ...typed.message, nonce: BigInt(typed.message.nonce), deadline: BigInt(typed.message.deadline) },
  })
  const relay = await s.progress.step(
    'Relay (the service pays the gas)',
    async () => (await s.api.post('/api/gasless/burn', { burner: wallet.address, deadline: typed.message.deadline, signature })).body,
    (r) => r.txHash,
  )
  s.print(relay, ['', `Burned 225,000 tokens without gas: ${relay.explorerUrl}`, `Redeem a portrait with: ${commandLine(['looksmaxx', '--image', '<file>', '--burn-tx', relay.txHash, '--dev-tx', relay.txHash, ...s.repeat])}`])
}

export async function stake(s: Session, opts: { amount?: string; venue: string; action: string }) {
  if (!['stake', 'unstake', 'claim'].includes(opts.action)) throw new UsageError('--action is stake, unstake or claim')
  if (opts.action !== 'claim' && !opts.amount) throw new UsageError(`${opts.action} needs an amount in tokens, e.g. stake 1000`)
  const wallet = await s.wallet()
  const { body } = await s.api.get('/api/defi/staking/tx', { action: opts.action, venue: opts.venue, amount: opts.amount, address: wallet.address })
  const hashes = await runPlan(s, body.executionPlan, `this ${opts.action}`)
  s.print({ ...body, transactions: hashes }, ['', `${opts.action} on ${opts.venue}: done (${hashes.length} transaction${hashes.length === 1 ? '' : 's'})`])
}

export async function vote(s: Session, opts: { proposalId?: string; support?: string }) {
  if (!opts.proposalId || !/^\d+$/.test(opts.proposalId)) throw new UsageError('vote needs a proposal id: vote <id> --support for|against|abstain')
  const { body } = await s.api.get('/api/defi/governance/vote-tx', { proposalId: opts.proposalId, support: opts.support ?? 'for' })
  const hashes = await runPlan(s, body.executionPlan, 'this vote')
  s.print({ ...body, transactions: hashes }, ['', `Voted ${opts.support ?? 'for'} on proposal ${opts.proposalId}: ${hashes.at(-1)}`])
}
