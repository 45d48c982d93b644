import type { Config } from '../../config/load.ts'
import type { AnyOperation, RateLimitClass } from '../define.ts'

export type LimitScope = 'ip' | 'wallet'

/** POSTs are writes unless they declare otherwise; GETs are cached reads unless declared expensive. */
export function limitClassOf(op: Pick<AnyOperation, 'method' | 'limit'>): RateLimitClass {
  return op.limit ?? (op.method === 'POST' ? 'write' : 'read')
}

/** Requests a client (by address) or a wallet may make per minute in a class; 0 is no limit. */
export function perMinute(config: Config, limitClass: RateLimitClass, scope: LimitScope): number {
  switch (limitClass) {
    case 'write':
      return scope === 'ip' ? config.RATE_LIMIT_WRITES_PER_MINUTE : config.RATE_LIMIT_WALLET_WRITES_PER_MINUTE
    case 'expensive':
      return scope === 'ip' ? config.RATE_LIMIT_EXPENSIVE_PER_MINUTE : config.RATE_LIMIT_WALLET_EXPENSIVE_PER_MINUTE
    default:
      return scope === 'ip' ? config.RATE_LIMIT_READS_PER_MINUTE : 0
  }
}

/** Whether an operation can answer 429 under this configuration. */
export const isRateLimited = (config: Config, op: Pick<AnyOperation, 'method' | 'limit'>) =>
  perMinute(config, limitClassOf(op), 'ip') > 0 || perMinute(config, limitClassOf(op), 'wallet') > 0
