import { parseEther } from 'viem'
import { AppError } from '../../errors/app-error.ts'

/** Anything above this is no purchase a caller means; the quoter would only fail later. */
const MAX_WEI = 10n ** 30n

/**
 * Reads an ETH amount (the input `field`, named in the error) the way the spec allows: a decimal ETH value ("0.5", "2") or a wei
 * integer. An integer of 10 or more digits is wei (no one buys 10^9 ETH); shorter integers
 * and anything with a dot are ETH. Returns wei.
 */
export function parseEthAmount(raw: string, field = 'ethAmount'): bigint {
  const value = raw.trim()
  const invalid = (why: string) =>
    new AppError('INVALID_AMOUNT', `Invalid ${field} ${JSON.stringify(raw)}: ${why}`, { details: { field } })
  if (!/^\d+(\.\d+)?$|^\.\d+$/.test(value)) throw invalid('expected a positive ETH decimal like "0.5" or a wei integer.')
  const [, fraction = ''] = value.split('.')
  if (fraction.length > 18) throw invalid('ETH has at most 18 decimal places.')
  const wei = !value.includes('.') && value.length >= 10 ? BigInt(value) : parseEther(value)
  if (wei <= 0n) throw invalid('the amount must be greater than zero.')
  if (wei > MAX_WEI) throw invalid('the amount is larger than any pool can fill.')
  return wei
}
