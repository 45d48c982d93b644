import rateLimit from '@fastify/rate-limit'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Redis } from 'ioredis'
import type { Config } from '../config/load.ts'
import type { AnyOperation, RateLimitClass } from '../operations/define.ts'
import { getAddress, isAddress } from 'viem'
import { AppError } from '../errors/app-error.ts'
import { limitClassOf, perMinute, type LimitScope } from '../operations/runtime/rate-limit-class.ts'

export { limitClassOf }

const WINDOW_MS = 60_000

/** Input fields that name the wallet a request acts for, in order of precedence. */
const WALLET_FIELDS = ['burnerAddress', 'burner', 'wallet', 'address', 'proposer', 'voter', 'recipient'] as const

export type RateLimiter = {
  /** The per-IP limit of the class: an onRequest hook, so a refused client's body is never read. */
  ipHook(limitClass: RateLimitClass): (request: FastifyRequest, reply: FastifyReply) => Promise<void>
  /** The hooks a route of the class installs: none when its per-IP limit is off (cached reads by default). */
  ipHooks(limitClass: RateLimitClass): Array<(request: FastifyRequest, reply: FastifyReply) => Promise<void>>
  /**
   * The per-wallet limit of the class, once the input is parsed. Nothing to wait for (undefined)
   * when the input names no wallet or the limit is off, so a hot read awaits no promise here.
   */
  checkWallet(request: FastifyRequest, limitClass: RateLimitClass, input: unknown): Promise<void> | undefined
}

type Scope = LimitScope
type Check = (request: FastifyRequest) => Promise<{ isAllowed: boolean; isExceeded?: boolean; max?: number; remaining?: number; ttlInSeconds?: number }>

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
 * Per-IP and per-wallet limits per class of operation, counted in fixed one-minute windows by
 * @fastify/rate-limit: in Redis when REDIS_URL is set (every instance counts in the same keys),
 * in this process otherwise. A Redis outage lets requests through rather than refusing them all.
 */
export function registerRateLimits(
  app: FastifyInstance,
  options: { config: Config; redis?: Redis; onLimited?: (limitClass: RateLimitClass, scope: Scope) => void },
): RateLimiter {
  const { config } = options
  app.register(rateLimit, {
    global: false,
    skipOnError: true,
    ...(options.redis ? { redis: options.redis, nameSpace: `${config.REDIS_PREFIX}:rate:` } : {}),
  })
  const keys = new WeakMap<FastifyRequest, string>()
  const checks = new Map<string, Check>()
  // The plugin's decorator exists once the plugin has loaded, i.e. by the first request.
  const checkOf = (limitClass: RateLimitClass, scope: Scope): Check => {
    const name = `${limitClass}:${scope}`
    let check = checks.get(name)
    if (!check) {
      check = (app as unknown as { createRateLimit(o: object): Check }).createRateLimit({
        max: perMinute(config, limitClass, scope),
        timeWindow: WINDOW_MS,
        keyGenerator: (request: FastifyRequest) => `${name}:${keys.get(request)}`,
      })
      checks.set(name, check)
    }
    return check
  }

  async function enforce(request: FastifyRequest, reply: FastifyReply | undefined, limitClass: RateLimitClass, scope: Scope, key: string) {
    const max = perMinute(config, limitClass, scope)
    if (max === 0) return
    keys.set(request, key)
    const result = await checkOf(limitClass, scope)(request)
    if (reply && result.max !== undefined) reply.header('x-ratelimit-limit', result.max).header('x-ratelimit-remaining', result.remaining ?? 0)
    if (!result.isExceeded) return
    options.onLimited?.(limitClass, scope)
    const retryAfterSeconds = Math.max(1, result.ttlInSeconds ?? 1)
    // The key is lower-cased to count every spelling once; the message names the wallet as written by EIP-55.
    const who = scope === 'ip' ? 'this client address' : `wallet ${isAddress(key) ? getAddress(key) : key}`
    throw new AppError('RATE_LIMITED', `Too many ${limitClass} requests from ${who}: at most ${max} per minute. Retry in ${retryAfterSeconds} s.`, {
      details: { retryAfterSeconds, limit: max, windowSeconds: WINDOW_MS / 1000, scope, class: limitClass },
    })
  }

  const ipHook = (limitClass: RateLimitClass) => (request: FastifyRequest, reply: FastifyReply) => enforce(request, reply, limitClass, 'ip', request.ip)
  return {
    ipHook,
    ipHooks: (limitClass) => (perMinute(config, limitClass, 'ip') === 0 ? [] : [ipHook(limitClass)]),
    checkWallet(request, limitClass, input) {
      if (perMinute(config, limitClass, 'wallet') === 0) return undefined
      const wallet = walletOf(input)
      return wallet ? enforce(request, undefined, limitClass, 'wallet', wallet) : undefined
    },
  }
}
