import { z } from 'zod'
import { getAddress, zeroAddress } from 'viem'
import type { ErrorCode } from '../errors/codes.ts'

/**
 * Shared primitives of every request and response shape. An input primitive carries the
 * error code a caller gets when it fails (`errorCode` meta), so that "invalid address" is
 * INVALID_ADDRESS wherever an address is taken.
 */
export const ADDRESS_PATTERN = '^0x[a-fA-F0-9]{40}$'
export const TX_HASH_PATTERN = '^0x[a-fA-F0-9]{64}$'

type InputMeta = { errorCode?: ErrorCode; description?: string; example?: unknown }

/** An address in any case; EIP-55 checksummed once parsed. */
export const addressIn = (description = 'EVM address (0x + 40 hex digits, any case)') =>
  z
    .string()
    .regex(new RegExp(ADDRESS_PATTERN), { error: 'must be 0x followed by 40 hex digits' })
    .meta({ errorCode: 'INVALID_ADDRESS', description } satisfies InputMeta)
    .transform((value) => getAddress(value))

/**
 * A wallet: an address that holds or acts. The zero address is refused: nobody holds tokens or
 * NFTs there or signs for it (an NFT's balanceOf reverts for it).
 */
export const walletIn = (description = 'Wallet address (0x + 40 hex digits, any case)') =>
  addressIn(description).refine((value) => value !== zeroAddress, { error: 'must not be the zero address: nobody holds or signs for it' })

/**
 * A link a user gives to be shown to others: http or https only (a javascript: or data: URL
 * stored now would run in whatever page shows it later).
 */
export const webLink = (max: number) => z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(max)

/** An address as the API returns it: EIP-55 checksummed. */
export const addressOut = z.string().regex(new RegExp(ADDRESS_PATTERN)).meta({ description: 'EIP-55 address' })

export const txHash = z
  .string()
  .regex(new RegExp(TX_HASH_PATTERN), { error: 'must be 0x followed by 64 hex digits' })
  .meta({ errorCode: 'INVALID_INPUT', description: 'Transaction hash' } satisfies InputMeta)
  .transform((value) => value.toLowerCase() as `0x${string}`)

export const wei = z.string().regex(/^\d+$/).meta({ description: 'Amount in wei, decimal string' })
export const hexData = z.string().regex(/^0x[0-9a-fA-F]*$/).meta({ description: 'Hex-encoded bytes' })
export const isoTimestamp = z.string().meta({ description: 'ISO 8601 date-time', format: 'date-time' })

export const chainInfo = z.object({
  name: z.string(),
  chainId: z.number().int(),
  rpc: z.string(),
})

/**
 * An integer of the query (or a tool's number) within bounds; out-of-range values are refused,
 * not clamped, and the message says which bound (the schema's own error would cover every check).
 */
export const boundedInt = (min: number, max?: number) => {
  const range = max === undefined ? `at least ${min}` : `from ${min} to ${max}`
  const schema = z.coerce.number({ error: 'must be an integer' }).int({ error: 'must be an integer' }).min(min, { error: `must be ${range}` })
  return max === undefined ? schema : schema.max(max, { error: `must be ${range}` })
}

/** A query integer with bounds and a default. */
export const queryInt = (opts: { min: number; max?: number; default: number; description: string }) =>
  boundedInt(opts.min, opts.max).default(opts.default).meta({ description: opts.description })

/** The transaction instructions the builders return: the caller signs and sends them. */
export const txRequest = z.object({
  to: addressOut,
  value: wei,
  data: hexData,
  chainId: z.number().int(),
  functionName: z.string().optional(),
  args: z.array(z.unknown()).optional(),
  description: z.string().optional(),
})

export const errorBody = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z.record(z.string(), z.unknown()).optional(),
  }),
})

export const noInput = z.object({})

export function inputErrorCode(schema: z.ZodType): ErrorCode | undefined {
  let current: any = schema
  for (let depth = 0; current && depth < 8; depth++) {
    const meta = z.globalRegistry.get(current) as InputMeta | undefined
    if (meta?.errorCode) return meta.errorCode
    const def = current._zod?.def
    current = def?.in ?? def?.innerType ?? def?.schema
  }
  return undefined
}
