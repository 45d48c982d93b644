import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible'
import type { Redis } from 'ioredis'
import { getAddress, isAddress } from 'viem'
import type { Config } from '../../config/load.ts'
import type { AnyOperation, RateLimitClass } from '../define.ts'
import { AppError } from '../../errors/app-error.ts'

export type LimitScope = 'ip' | 'wallet'

/** Input fields that name the wallet a request acts for, in order of precedence. */
const WALLET_FIELDS = ['burnerAddress', 'burner', 'wallet', 'address', 'proposer', 'voter', 'recipient'] as const

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

/** The wallet a parsed input acts for, lower-cased (addresses match case-insensitively). */
export function walletOf(input: unknown): string | undefined {
  if (!input || typeof input !== 'object') return undefined
  for (const field of WALLET_FIELDS) {
    const value = (input as Record<string, unknown>)[field]
    if (typeof value === 'string' && /^0x[0-9a-fA-F]{40}$/.test(value)) return value.toLowerCase()
  }
  return undefined
}

/**
 * The key a client address is counted under. An IPv6 client is counted by its /64: one host
 * (one customer of a provider) is given a whole /64 and can pick any address inside it, so a
 * per-address count would let it start afresh at will. IPv4 (and IPv4-mapped IPv6) as is.
 */
export function clientKeyOf(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  if (mapped) return mapped[1]!
  if (!address.includes(':')) return address
  const [head = '', tail = ''] = address.split('%')[0]!.toLowerCase().split('::')
  const left = head ? head.split(':') : []
  const right = tail ? tail.split(':') : []
  const groups = address.includes('::') ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right] : left
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/64`
}

/** What a client has left in a window, for the X-RateLimit-* headers. */
export type LimitState = { limit: number; remaining: number }

/**
 * Per client address and per wallet limits for each class of operation, counted in fixed
 * one-minute windows (rate-limiter-flexible): in Redis when one is given (every instance counts
 * in the same keys), in this process otherwise. A Redis outage lets requests through rather than
 * refusing them all. Every transport (HTTP routes, MCP tool calls) counts here.
 */
export type Limits = {
  /**
   * Counts a request of the class from a client address. Nothing to wait for (undefined) when
   * the class has no per-address limit, so a hot read awaits no promise; a refusal rejects with
   * RATE_LIMITED.
   */
  checkAddress(limitClass: RateLimitClass, address: string | undefined): Promise<LimitState> | undefined
  /** Counts a request of the class for the wallet its input names, if any (undefined: not limited). */
  checkWallet(limitClass: RateLimitClass, input: unknown): Promise<LimitState> | undefined
  /** Calls `listener` on every refusal (the metrics count them). */
  onRefusal(listener: (limitClass: RateLimitClass, scope: LimitScope) => void): void
}

export function createLimits(config: Config, options: { redis?: Redis } = {}): Limits {
  const window = config.RATE_LIMIT_WINDOW_SECONDS
  const per = window === 60 ? 'per minute' : `per ${window} s`
  const listeners: Array<(limitClass: RateLimitClass, scope: LimitScope) => void> = []
  const limiters = new Map<string, RateLimiterAbstract>()
  const limiterOf = (limitClass: RateLimitClass, scope: LimitScope, points: number) => {
    const name = `${limitClass}:${scope}`
    let limiter = limiters.get(name)
    if (!limiter) {
      limiter = options.redis
        ? new RateLimiterRedis({ storeClient: options.redis, keyPrefix: `${config.REDIS_PREFIX}:rate:${name}`, points, duration: window, rejectIfRedisNotReady: true })
        : new RateLimiterMemory({ keyPrefix: name, points, duration: window })
      limiters.set(name, limiter)
    }
    return limiter
  }

  async function count(limitClass: RateLimitClass, scope: LimitScope, key: string, max: number): Promise<LimitState> {
    let state: RateLimiterRes
    try {
      state = await limiterOf(limitClass, scope, max).consume(key)
    } catch (error) {
      // Anything but a verdict is the store failing (Redis away): let the request through.
      if (!(error instanceof RateLimiterRes)) return { limit: max, remaining: max }
      for (const listener of listeners) listener(limitClass, scope)
      const retryAfterSeconds = Math.max(1, Math.ceil(error.msBeforeNext / 1000))
      // The key is lower-cased to count every spelling once; the message names the wallet as EIP-55 writes it.
      const who = scope === 'ip' ? 'this client address' : `wallet ${isAddress(key) ? getAddress(key) : key}`
      throw new AppError('RATE_LIMITED', `Too many ${limitClass} requests from ${who}: at most ${max} ${per}. Retry in ${retryAfterSeconds} s.`, {
        details: { retryAfterSeconds, limit: max, windowSeconds: window, scope, class: limitClass },
      })
    }
    return { limit: max, remaining: state.remainingPoints }
  }

  return {
    checkAddress(limitClass, address) {
      const max = perMinute(config, limitClass, 'ip')
      return max === 0 || address === undefined ? undefined : count(limitClass, 'ip', clientKeyOf(address), max)
    },
    checkWallet(limitClass, input) {
      const max = perMinute(config, limitClass, 'wallet')
      if (max === 0) return undefined
      const wallet = walletOf(input)
      return wallet ? count(limitClass, 'wallet', wallet, max) : undefined
    },
    onRefusal: (listener) => void listeners.push(listener),
  }
}
