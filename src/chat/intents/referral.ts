import { getReferrals } from '../../operations/referral/get-referrals.ts'
import { getReferralAgent } from '../../operations/referral/get-referral-agent.ts'
import { formatUnits } from 'viem'
import { REFERRAL_REWARD_WEI, TOKEN_DECIMALS } from '../../chain/constants.ts'
import { fmt } from '../words.ts'
import { operationIntent } from './define-intent.ts'
import { subjectOr } from './wallets.ts'

export const referral = operationIntent({
  description: 'Referral stats of an agent and the reward per referred burn',
  example: 'my referral stats',
  operation: getReferrals,
  input: subjectOr,
  answer: (d) =>
    `${d.registered ? `Registered agent, code ${d.referralCode}` : 'Not a registered agent yet'}: ${d.stats.referralCount} referred burns, ${d.stats.totalEarningsFormatted} earned; ${d.rewardInfo.rewardPerBurn} tokens per referred burn.`,
})

/**
 * Registration is a signed POST the chat does not send: the read says whether the wallet is
 * registered and carries the typed data to sign for POST /api/agent/register.
 */
export const registerAgent = operationIntent({
  description: `Become a referral agent (earn ${fmt(Number(formatUnits(REFERRAL_REWARD_WEI, TOKEN_DECIMALS)), 0)} tokens per referred burn)`,
  example: 'register me as an agent',
  operation: getReferralAgent,
  input: subjectOr,
  answer: (d) =>
    d.registered
      ? `${d.agent} is already a registered agent (code ${d.referralCode}).`
      : `${d.agent} is not registered yet: sign the ReferralAgentRegistration typed data in signTypedData with that wallet, then POST /api/agent/register with wallet, signature and issuedAt; the answer holds the registerAgent() transaction to send from that wallet.`,
})
