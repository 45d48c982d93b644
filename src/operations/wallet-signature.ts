import { z } from 'zod'
import { isAddressEqual, recoverTypedDataAddress } from 'viem'
import { AppError } from '../errors/app-error.ts'
import { CHAIN_ID } from '../chain/constants.ts'

/**
 * Writes on behalf of a wallet (early access, referral-agent registration) carry the wallet's
 * EIP-712 signature over exactly what is written and the time it was signed. A signature is
 * accepted for SIGNATURE_MAX_AGE_SECONDS after issuedAt, so a captured one cannot be replayed
 * later; stored rows remember issuedAt, so an older signed write never replaces a newer one.
 */
export const SIGNATURE_MAX_AGE_SECONDS = 600
/** Tolerated clock difference for an issuedAt slightly in the future. */
const CLOCK_SKEW_SECONDS = 60

export const registrationDomain = { name: 'MegaChad', version: '1', chainId: CHAIN_ID } as const

export const registrationTypes = {
  EarlyAccessRegistration: [
    { name: 'wallet', type: 'address' },
    { name: 'twitter', type: 'string' },
    { name: 'tweetUrl', type: 'string' },
    { name: 'referralCode', type: 'string' },
    { name: 'issuedAt', type: 'uint256' },
  ],
  ReferralAgentRegistration: [
    { name: 'wallet', type: 'address' },
    { name: 'mcpEndpoint', type: 'string' },
    { name: 'description', type: 'string' },
    { name: 'issuedAt', type: 'uint256' },
  ],
} as const

export type RegistrationType = keyof typeof registrationTypes

/** Where each registration's typed data is served (the GET of the same path). */
const FORM_PATHS: Record<RegistrationType, string> = {
  EarlyAccessRegistration: '/api/early/register',
  ReferralAgentRegistration: '/api/agent/register',
}

/**
 * The wallet's signature of a registration. A missing or malformed one says what to sign and
 * where to get it, since "expected string" teaches nothing to an agent that never signed.
 */
export function walletSignatureFor(primaryType: RegistrationType) {
  const howTo = `sign the EIP-712 ${primaryType} typed data that GET ${FORM_PATHS[primaryType]} returns (signTypedData with the wallet; fill in every field you send, omitted ones as "", and issuedAt = now in unix seconds), and send that signature here with the same issuedAt`
  return z
    .string({ error: (issue) => (issue.input === undefined ? `required: ${howTo}` : `must be a hex string: ${howTo}`) })
    .regex(/^0x[0-9a-fA-F]{130,}$/, { error: `must be a 0x-prefixed hex signature of at least 65 bytes: ${howTo}` })
    .meta({ errorCode: 'INVALID_SIGNATURE' })
    .transform((value) => value as `0x${string}`)
    .describe(`EIP-712 ${primaryType} signed by wallet (the typed data is in GET ${FORM_PATHS[primaryType]})`)
}

export const issuedAtField = z
  .number({ error: (issue) => (issue.input === undefined ? 'required: the unix time in seconds at which the wallet signed, the same value as in the signed message' : 'must be unix seconds (an integer)') })
  .int()
  .positive()
  .describe('Unix seconds when the wallet signed (accepted for 10 minutes)')

/** Throws INVALID_SIGNATURE or SIGNATURE_EXPIRED unless `wallet` signed `message` recently. */
export async function requireWalletSignature<T extends RegistrationType>(args: {
  primaryType: T
  wallet: `0x${string}`
  message: Record<string, string | bigint>
  issuedAt: number
  signature: `0x${string}`
  /** The current time in unix seconds: handlers pass their clock's (the default is for callers outside a handler). */
  nowSeconds?: number
}): Promise<void> {
  const now = args.nowSeconds ?? Math.floor(Date.now() / 1000)
  if (args.issuedAt < now - SIGNATURE_MAX_AGE_SECONDS || args.issuedAt > now + CLOCK_SKEW_SECONDS) {
    throw new AppError('SIGNATURE_EXPIRED', `issuedAt ${args.issuedAt} is not within the last ${SIGNATURE_MAX_AGE_SECONDS} seconds (now ${now}); sign again.`, {
      details: { field: 'issuedAt' },
    })
  }
  const signer = await recoverTypedDataAddress({
    domain: registrationDomain,
    types: registrationTypes,
    primaryType: args.primaryType,
    message: { ...args.message, wallet: args.wallet, issuedAt: BigInt(args.issuedAt) },
    signature: args.signature,
  } as Parameters<typeof recoverTypedDataAddress>[0]).catch(() => undefined)
  if (!signer || !isAddressEqual(signer, args.wallet)) {
    throw new AppError(
      'INVALID_SIGNATURE',
      `The signature does not recover to ${args.wallet} for this ${args.primaryType} (every field as sent, omitted ones as "", and issuedAt). Only the wallet may register itself.`,
      { details: { field: 'signature' } },
    )
  }
}

/** What to sign, for the GET answers: the domain, the type and a message to fill in. */
export function signTypedDataTemplate<T extends RegistrationType>(primaryType: T, message: Record<string, string>) {
  return {
    domain: registrationDomain,
    types: { [primaryType]: [...registrationTypes[primaryType]] } as Record<string, Array<{ name: string; type: string }>>,
    primaryType,
    message,
  }
}

export const signTypedDataOut = z.object({
  domain: z.object({ name: z.string(), version: z.string(), chainId: z.number().int() }),
  types: z.record(z.string(), z.array(z.object({ name: z.string(), type: z.string() }))),
  primaryType: z.string(),
  message: z.record(z.string(), z.string()),
})
