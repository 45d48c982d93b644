import { hexToBytes } from 'viem'

/** An agent's referral code: the first 12 characters of base64url of its 20 address bytes. */
export function referralCodeOf(agent: `0x${string}`): string {
  return Buffer.from(hexToBytes(agent)).toString('base64url').slice(0, 12)
}
