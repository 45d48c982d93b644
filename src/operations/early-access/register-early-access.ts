import { z } from 'zod'
import { defineOperation } from '../define.ts'
import { addressIn, addressOut, webLink } from '../schemas.ts'
import { AppError } from '../../errors/app-error.ts'
import { readHoldings } from '../../chain/reads/read-holdings.ts'
import { deleteUnsignedRegistration, insertRegistration } from '../../store/early-access.ts'
import { issuedAtField, requireWalletSignature, walletSignatureFor } from '../wallet-signature.ts'
import { referralCodeCandidates } from './referral-code-candidates.ts'

/** Instant access takes this many portraits; any tokens or one portrait open the referral path. */
export const INSTANT_ACCESS_NFTS = 3

export const registerEarlyAccess = defineOperation({
  id: 'register_early_access',
  destructive: true,
  idempotent: true,
  // HTTP only: testnet-beta sign-up, not a protocol capability.
  method: 'POST',
  path: '/api/early/register',
  summary: 'Register a wallet for early access; eligibility is read from the chain',
  description:
    'Only the wallet may register itself: signature is its EIP-712 EarlyAccessRegistration over every field as sent (omitted ones as "") and issuedAt (see signTypedData in GET /api/early/register); a missing or foreign signature is 400 INVALID_SIGNATURE, an issuedAt older than 10 minutes 400 SIGNATURE_EXPIRED. 403 for a wallet with neither tokens nor looksmaxxed NFTs. Registering again returns the first registration (same referral code).',
  tags: ['economy'],
  input: z.object({
    wallet: addressIn('Wallet to register'),
    twitter: z.string().regex(/^@?\w{1,15}$/, { error: 'must be a Twitter handle' }).optional(),
    tweetUrl: webLink(300).optional(),
    referralCode: z.string().regex(/^[a-z0-9]{6,16}$/, { error: 'must be a referral code' }).optional(),
    signature: walletSignatureFor('EarlyAccessRegistration'),
    issuedAt: issuedAtField,
  }),
  output: z.object({
    success: z.boolean(),
    wallet: addressOut,
    eligibility: z.object({ hasTokens: z.boolean(), nftCount: z.number().int(), instantAccess: z.boolean(), path: z.enum(['instant', 'referral']) }),
    referralCode: z.string(),
    referralLink: z.string(),
    message: z.string(),
  }),
  errors: ['INVALID_ADDRESS', 'INVALID_SIGNATURE', 'SIGNATURE_EXPIRED', 'NOT_ELIGIBLE', 'UPSTREAM_FAILED'],
  uses: ['chain', 'db', 'baseUrl', 'clock'],
  async handler(ctx, input) {
    await requireWalletSignature({
      primaryType: 'EarlyAccessRegistration',
      wallet: input.wallet,
      message: { twitter: input.twitter ?? '', tweetUrl: input.tweetUrl ?? '', referralCode: input.referralCode ?? '' },
      issuedAt: input.issuedAt,
      signature: input.signature,
      nowSeconds: Math.floor(ctx.clock() / 1000),
    })
    const { tokens: balance, nfts } = await readHoldings(ctx.chain, input.wallet)
    const eligibility = {
      hasTokens: balance > 0n,
      nftCount: Number(nfts),
      instantAccess: nfts >= BigInt(INSTANT_ACCESS_NFTS),
      path: nfts >= BigInt(INSTANT_ACCESS_NFTS) ? ('instant' as const) : ('referral' as const),
    }
    if (!eligibility.hasTokens && eligibility.nftCount === 0) {
      throw new AppError('NOT_ELIGIBLE', 'The wallet holds no service tokens and no looksmaxxed NFTs. Buy tokens (GET /api/x402/quote) or looksmaxx first.', {
        details: { tokenBalance: '0', nftCount: 0 },
      })
    }
    let referralCode: string | undefined
    try {
      // Registering twice keeps the first registration: the same code and the same path. A
      // code another wallet already holds (same address prefix and handle) is not an error:
      // the next candidate, longer, is tried. A row stored before signatures were required
      // (nobody proved it was the wallet's) gives way to the wallet's own signed registration.
      await deleteUnsignedRegistration(ctx.db, input.wallet)
      for (const code of referralCodeCandidates(input.wallet, input.twitter)) {
        referralCode = await insertRegistration(ctx.db, {
          wallet: input.wallet, twitter: input.twitter ?? null, tweetUrl: input.tweetUrl ?? null, referralCode: code,
          referredBy: input.referralCode ?? null, path: eligibility.path, signature: input.signature, signedAt: input.issuedAt,
        })
        if (referralCode) break
      }
    } catch (cause) {
      throw new AppError('UPSTREAM_FAILED', 'The registration store is unavailable; try again shortly.', { cause, retryable: true })
    }
    if (!referralCode) throw new AppError('INTERNAL_ERROR', 'internal error', { cause: new Error(`no free referral code for ${input.wallet}`) })
    return {
      success: true,
      wallet: input.wallet,
      eligibility,
      referralCode,
      referralLink: `${ctx.baseUrl()}/early?ref=${referralCode}`,
      message: eligibility.instantAccess ? 'Instant access granted.' : 'Registered on the referral path: share your link.',
    }
  },
})

