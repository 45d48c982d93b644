import { test } from 'node:test'
import assert from 'node:assert/strict'
import { parseEther } from 'viem'
import { useApp } from '../support/harness.ts'

/**
 * Issue 24, "Refusals teach": the refusals an agent meets most say what to send instead. Each
 * test reads the message as an agent would and follows it where it can.
 */
const app = useApp()

test('a registration without a signature names the typed data to sign and where to get it', async () => {
  for (const [path, primaryType] of [
    ['/api/early/register', 'EarlyAccessRegistration'],
    ['/api/agent/register', 'ReferralAgentRegistration'],
  ] as const) {
    const wallet = app.devnet.info.accounts.demoHolder
    const missing = await app.post(path, { wallet, issuedAt: Math.floor(Date.now() / 1000) })
    assert.equal(missing.status, 400)
    assert.equal(missing.body.error.code, 'INVALID_SIGNATURE')
    assert.match(missing.body.error.message, new RegExp(`Invalid signature: required: sign the EIP-712 ${primaryType} typed data that GET ${path} returns`))
    assert.doesNotMatch(missing.body.error.message, /expected string/)
    // The place it names gives exactly that typed data.
    const form = await app.get(`${path}${path === '/api/agent/register' ? `?address=${wallet}` : ''}`)
    assert.equal(form.status, 200)
    assert.equal((form.body.signTypedData ?? form.body.registration.signTypedData).primaryType, primaryType)

    const noTime = await app.post(path, { wallet, signature: `0x${'11'.repeat(65)}` })
    assert.equal(noTime.status, 400)
    assert.match(noTime.body.error.message, /issuedAt: required: the unix time in seconds at which the wallet signed/)
  }
})

test('a swap too small to pay anything says the least amount that does, and that amount gets a plan', async () => {
  const holder = app.devnet.info.accounts.demoHolder
  const refused = await app.get(`/api/defi/amm/swap-tx?from=MC&amount=0.000000000000000001&recipient=${holder}`)
  assert.equal(refused.status, 400)
  assert.equal(refused.body.error.details.reason, 'zero_output')
  const least = /Send at least ([\d.]+) tokens \((\d+) wei\)/.exec(refused.body.error.message)
  assert.ok(least, refused.body.error.message)
  const planned = await app.get(`/api/defi/amm/swap-tx?from=MC&amount=${least[1]}&recipient=${holder}`)
  assert.equal(planned.status, 200, planned.text)
  const justBelow = BigInt(least[2]!) - 1n
  if (justBelow > 0n) {
    const below = await app.get(`/api/defi/amm/swap-tx?from=MC&amount=${Number(justBelow) / 1e18}&recipient=${holder}`)
    assert.equal(below.status, 400, 'one wei less still pays nothing')
  }
})

test('a vote on a proposal not open yet says when voting opens; the wrong step names the right one', async () => {
  // The seed: 4 Succeeded, 6 Queued (eta an hour after boot), 7 Active, 8 Pending.
  const pending = await app.get('/api/defi/governance/vote-tx?proposalId=8&support=for')
  assert.equal(pending.status, 400)
  const opens = /Voting opens at (\S+); build the vote then\./.exec(pending.body.error.message)
  assert.ok(opens, pending.body.error.message)
  const proposal = await app.get('/api/defi/governance/proposals/8')
  assert.equal(new Date(opens[1]!).getTime() / 1000, Number(proposal.body.startTime ?? proposal.body.proposal?.startTime), 'the time the proposal itself gives')

  const succeeded = await app.get('/api/defi/governance/execute-tx?proposalId=4')
  assert.match(succeeded.body.error.message, /queue it first with GET \/api\/defi\/governance\/queue-tx\?proposalId=4/)
  assert.equal((await app.get('/api/defi/governance/queue-tx?proposalId=4')).status, 200, 'and the step it names is served')

  const queued = await app.get('/api/defi/governance/execute-tx?proposalId=6')
  assert.equal(queued.body.error.details.reason, 'timelock_pending')
  assert.match(queued.body.error.message, /can be executed from \S+ \(in \d+ s\)/)

  const active = await app.get('/api/defi/governance/queue-tx?proposalId=7')
  assert.match(active.body.error.message, /Voting is open until \S+: GET \/api\/defi\/governance\/vote-tx\?proposalId=7/)
})

test('a plan with too little ETH for the burn says how much is enough', async () => {
  const agent = app.devnet.info.accounts.agents?.[0] ?? '0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc'
  const refused = await app.get(`/api/agent/looksmaxx?wallet=${agent}&ethAmount=${Number(parseEther('0.000001')) / 1e18}`)
  assert.equal(refused.status, 400)
  assert.equal(refused.body.error.code, 'INVALID_AMOUNT')
  assert.match(refused.body.error.message, /About [\d.]+ ETH covers them/)
  assert.ok(Number(refused.body.error.details.ethNeeded) > 0)
})
