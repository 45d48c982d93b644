import { keccak256, toBytes } from 'viem'

/**
 * Referral codes for a wallet, first choice first: six hex characters of the address and four
 * letters of the Twitter handle (`agen` without one); when taken by another wallet, more of
 * the address (up to twelve characters), then twelve characters of a hash of the address and a
 * counter. Deterministic, at most 16 characters of [a-z0-9], so every code is a valid input.
 */
export function* referralCodeCandidates(wallet: string, twitter?: string): Generator<string> {
  const hex = wallet.slice(2).toLowerCase()
  const handle = (twitter ?? 'agent').replace(/^@/, '').toLowerCase().replace(/[^a-z0-9]/g, '').slice(0, 4) || 'agnt'
  for (const length of [6, 8, 10, 12]) yield `${hex.slice(0, length)}${handle}`
  for (let i = 1; i <= 16; i++) yield `${keccak256(toBytes(`${hex}:${i}`)).slice(2, 14)}${handle}`
}
