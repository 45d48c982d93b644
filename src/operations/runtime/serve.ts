import type { Context } from '../../context.ts'
import { portsOf, type AnyOperation, type RateLimitClass, type RequestMeta, type Streamed } from '../define.ts'
import type { CachedResponse } from '../../cache/response-cache.ts'
import { catchUp, MIN_BLOCK_WAIT_MS } from '../../cache/catch-up.ts'
import { AppError } from '../../errors/app-error.ts'
import { parseOperationInput } from './parse-input.ts'
import { runOperationToBytes } from './run-operation.ts'
import { limitClassOf, perMinute, type LimitState, type Limits } from './limits.ts'
import { absentFor, notDeployed } from '../../chain/not-deployed.ts'

/** Serving is a port of the Context: chat's nested reads go through it too (app.ts fills it in). */
declare module '../../context.ts' {
  interface Ports {
    serving: Serving
  }
}

/** Who asks, as every transport can say it. */
export type Caller = {
  transport: RequestMeta['transport']
  requestId: string
  /** Request headers, lower-cased names (HTTP; the x402 headers MCP derives from `_meta`). */
  headers?: Record<string, string | undefined>
  /**
   * The client's network address, counted by the per-address limits. Unset: not counted per
   * address (chat's nested reads: the chat request that asked was counted).
   */
  address?: string
  /** The answer must be at least as new as this block (a write of ours returned it). */
  minBlock?: bigint
  /** The per-address limit was counted already (HTTP does it before reading a body). */
  admitted?: boolean
  /**
   * A call made on behalf of a request that was counted itself (chat's reads for one message):
   * no limit counts it again; cache and freshness apply as to any call.
   */
  nested?: boolean
}

/** An answer: its serialized bytes, the block it is exact as of, and the caller's limit state. */
export type Served = CachedResponse & { block?: bigint; limit?: LimitState }

/** A parsed input and the cache key of the question it asks. */
export type Parsed = { input: unknown; key: string }

/** Serving one operation: what every transport calls, in this order. */
export type OperationServing = {
  op: AnyOperation
  limitClass: RateLimitClass
  /** Whether the class has a per-address limit (a route without one installs no hook for it). */
  limitsAddresses: boolean
  /**
   * Counts the request against the per-address limit of the operation's class; undefined when
   * that limit is off (no promise for a hot read). HTTP calls it before the body is read.
   */
  admit(caller: Pick<Caller, 'address'>): Promise<LimitState> | undefined
  /**
   * Parses raw input (path + query or body, a tool's arguments; or a function that gathers it,
   * called only when the memo does not hold the answer). `memo` (a GET's URL) keeps the parse
   * for the next identical request, within a bounded budget.
   */
  parse(raw: unknown | (() => unknown), memo?: string): Parsed
  /** Characters of URLs the parse memo holds now (bounded by MEMO_CHARS). */
  memoChars(): number
  /**
   * The answer: the per-wallet limit, `minBlock` catch-up, the response cache, the handler,
   * invalidation of what a write changed. A cached answer comes back synchronously.
   */
  serve(parsed: Parsed, caller: Caller): Served | Promise<Served>
  /** A streaming operation's stream (after the same limits). */
  stream(parsed: Parsed, caller: Caller): Promise<Streamed>
}

export type Serving = {
  limits: Limits
  of(op: AnyOperation): OperationServing
  /** Admits, parses and serves in one call (MCP tool calls, chat's nested reads). */
  call(op: AnyOperation, raw: unknown, caller: Caller): Promise<Served>
}

/**
 * URLs whose parsed input a GET keeps: a budget in characters per operation, so that long
 * unknown query strings cannot make the memo large (a URL over MEMO_URL_MAX is parsed each time).
 */
const MEMO_CHARS = 256 * 1024
const MEMO_URL_MAX = 512

/**
 * Serving, whatever the transport: canonical input and cache key, the response cache,
 * `minBlock` catch-up, rate limits per client address and per wallet by operation class,
 * invalidation and the block an answer is exact as of. HTTP, MCP and chat are adapters of this.
 */
export function createServing(ctx: Context, limits: Limits): Serving {
  const handles = new WeakMap<AnyOperation, OperationServing>()
  const of = (op: AnyOperation) => {
    let handle = handles.get(op)
    if (!handle) handles.set(op, (handle = serveOperation(ctx, op, limits)))
    return handle
  }
  return {
    limits,
    of,
    async call(op, raw, caller) {
      const handle = of(op)
      if (!caller.admitted && !caller.nested) {
        const admitted = handle.admit(caller)
        if (admitted) await admitted
      }
      return handle.serve(handle.parse(raw), { ...caller, admitted: true })
    },
  }
}

function serveOperation(ctx: Context, op: AnyOperation, limits: Limits): OperationServing {
  const limitClass = limitClassOf(op)
  const ttlMs = (op.cacheSeconds ? Math.min(op.cacheSeconds, ctx.config.CACHE_TTL_SECONDS) : 0) * 1000
  const memo = new Map<string, Parsed>()
  let memoChars = 0
  // The deployment is fixed for the life of the process: what the operation lacks is known now.
  const absent = ctx.chain ? absentFor(op, ctx.chain.contracts) : []
  const deployed = () => {
    if (absent.length > 0) throw notDeployed(absent)
  }

  /** What a cached answer must match: the versions of what it depends on, and the block asked for. */
  const freshnessFor = (asked: bigint | undefined) => {
    // A block not reached after the wait (not produced yet) is answered with what there is,
    // from the cache too; the answer says how new it is.
    const minBlock = asked !== undefined && ctx.fresh.block() >= asked ? asked : undefined
    return { stamp: ctx.fresh.stamp(op.dependsOn ?? []), block: ctx.fresh.block(), minBlock }
  }

  const metaOf = (caller: Caller): RequestMeta => ({ headers: caller.headers ?? {}, transport: caller.transport, requestId: caller.requestId, clientAddress: caller.address })

  async function compute(parsed: Parsed, caller: Caller, walletLimit: Promise<LimitState> | undefined): Promise<Served> {
    const limit = walletLimit ? await walletLimit : undefined
    const asked = caller.minBlock
    if (asked !== undefined && ctx.fresh.block() < asked) {
      await catchUp(ctx.db, ctx.fresh, asked, MIN_BLOCK_WAIT_MS, () => ctx.indexer.poke(), () => ctx.chain.client.getBlockNumber({ cacheTime: 0 }))
    }
    const run = () => runOperationToBytes(ctx, op, parsed.input, metaOf(caller))
    const freshness = freshnessFor(asked)
    // `get` answers a hit itself (serve's peek took the ones that need no await).
    const computed =
      ttlMs > 0
        ? await ctx.cache.get(parsed.key, ttlMs, run, (op.staleSeconds ?? 0) * 1000, freshness)
        : { ...(await run()), block: op.method === 'GET' ? freshness.block : ctx.fresh.block() }
    return limit ? { ...computed, limit } : computed
  }

  return {
    op,
    limitClass,
    limitsAddresses: perMinute(ctx.config, limitClass, 'ip') > 0,
    admit: (caller) => limits.checkAddress(limitClass, caller.address),
    parse(raw, url) {
      deployed()
      const known = url === undefined ? undefined : memo.get(url)
      if (known) return known
      const input = parseOperationInput(op, typeof raw === 'function' ? raw() : raw)
      const parsed = { input, key: op.cacheSeconds ? cacheKey(op, input) : '' }
      if (url !== undefined && url.length <= MEMO_URL_MAX) {
        if (memoChars + url.length > MEMO_CHARS) {
          memo.clear()
          memoChars = 0
        }
        memo.set(url, parsed)
        memoChars += url.length
      }
      return parsed
    },
    serve(parsed, caller) {
      if (op.streams) throw new AppError('INTERNAL_ERROR', 'internal error', { cause: new Error(`${op.id} streams; serve it with stream()`) })
      const walletLimit = caller.nested ? undefined : limits.checkWallet(limitClass, parsed.input)
      const asked = caller.minBlock
      if (walletLimit || (asked !== undefined && ctx.fresh.block() < asked)) return compute(parsed, caller, walletLimit)
      const hit = ttlMs > 0 ? ctx.cache.peek(parsed.key, freshnessFor(asked)) : undefined
      return hit ?? compute(parsed, caller, undefined)
    },
    memoChars: () => memoChars,
    async stream(parsed, caller) {
      deployed()
      const walletLimit = limits.checkWallet(limitClass, parsed.input)
      if (walletLimit) await walletLimit
      const result = await op.handler(portsOf(op, ctx), parsed.input, metaOf(caller))
      if ((result as Streamed).kind !== 'stream') throw new AppError('INTERNAL_ERROR', 'internal error', { cause: new Error(`${op.id} did not stream`) })
      return result as Streamed
    },
  }
}

/**
 * One question, one key: the canonical input. Parsed inputs list their fields in the schema's
 * order, so equal questions serialize equally.
 */
function cacheKey(op: AnyOperation, input: unknown): string {
  return `${op.id}:${JSON.stringify(op.canonicalInput ? op.canonicalInput(input) : input)}`
}

/** `minBlock` as a query field or the X-Min-Block header: a decimal block number; anything else is refused. */
export function parseMinBlock(raw: unknown): bigint | undefined {
  if (raw === undefined) return undefined
  if (typeof raw !== 'string' || !/^\d{1,20}$/.test(raw)) {
    throw new AppError('INVALID_INPUT', `Invalid minBlock: expected a block number, got ${JSON.stringify(raw)}.`, { details: { field: 'minBlock' } })
  }
  return BigInt(raw)
}

/** The JSON value of an answer's bytes (MCP and chat take values, not bytes). */
export function valueOf(served: Served): unknown {
  const type = served.headers?.['content-type']
  if (type && !type.startsWith('application/json')) return served.bytes.toString('utf8')
  return JSON.parse(served.bytes.toString('utf8'))
}
