import { test } from 'node:test'
import assert from 'node:assert/strict'
import { summarizeActivity } from './activity-summary.ts'

const actor = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const E18 = 10n ** 18n

test('every activity kind reads as one sentence naming who did what', () => {
  const cases: Array<[Parameters<typeof summarizeActivity>[0], string]> = [
    [{ kind: 'burn', actor, amount: (112_500n * E18).toString(), extra: {} }, '0xf39F…2266 burned 112,500 MC'],
    [{ kind: 'stake', actor, amount: (1_000n * E18).toString(), extra: { venue: 'mogger' } }, '0xf39F…2266 staked 1,000 MC on the mogger venue (MC)'],
    [{ kind: 'unstake', actor, amount: (5n * E18).toString(), extra: { venue: 'jester', pid: '0' } }, '0xf39F…2266 unstaked 5 LP from the jester venue (MC/MG LP)'],
    [{ kind: 'claim', actor, amount: ((25n * E18) / 2n).toString(), extra: { venue: 'mogger' } }, '0xf39F…2266 claimed 12.5 MG from the mogger venue (MC)'],
    [{ kind: 'vote', actor, amount: (3_000_000n * E18).toString(), extra: { proposalId: 7, support: 'for' } }, '0xf39F…2266 voted for #7 with 3,000,000 votes'],
    [{ kind: 'vote', actor, amount: E18.toString(), extra: { proposalId: 7, support: 'abstain' } }, '0xf39F…2266 abstained on #7 with 1 votes'],
    [{ kind: 'proposal_queued', actor: null, amount: null, extra: { proposalId: 9, eta: 1_800_000_000 } }, 'Proposal #9 queued, executable from 2027-01-15T08:00:00.000Z'],
    [{ kind: 'proposal_vetoed', actor: null, amount: null, extra: { proposalId: 4, by: 'council', yesVotes: 11, noVotes: 0 } }, 'Proposal #4 vetoed by the council (11 yes, 0 no)'],
    [{ kind: 'proposal_vetoed', actor: null, amount: null, extra: { proposalId: 5, by: 'owner' } }, 'Proposal #5 vetoed by the owner'],
    [{ kind: 'proposal_executed', actor: null, amount: null, extra: { proposalId: 2 } }, 'Proposal #2 executed'],
  ]
  for (const [row, expected] of cases) assert.equal(summarizeActivity(row), expected)
  const long = summarizeActivity({ kind: 'proposal_created', actor, amount: null, extra: { proposalId: 9, description: 'x'.repeat(120) } })
  assert.equal(long, `0xf39F…2266 proposed #9: ${'x'.repeat(79)}…`)
})
