import type { z } from 'zod'
import type { ErrorCode } from '../errors/codes.ts'
import type { Context } from '../context.ts'
import type { Topic } from '../cache/freshness.ts'
import type { ToolGroupName } from './tool-groups.ts'
import type { OptionalContractName } from '../chain/contract-names.ts'

export type HttpMethod = 'GET' | 'POST'

/**
 * How an operation is rate limited (docs/operators/abuse-resistance.md): `write` (acts on chain or
 * stores), `expensive` (an uncached per-wallet chain read, a quote, chat), `read` (a cached
 * public read). Limits apply per client IP and per wallet named in the input.
 */
export type RateLimitClass = 'write' | 'expensive' | 'read'

/**
 * What a call does to the world (MCP tool annotations derive from it): `read` changes nothing,
 * `build` changes nothing but returns transactions for the caller to send, `write` acts (stores,
 * pays, sends a transaction). Default: GET reads, POST writes.
 */
export type Effect = 'read' | 'build' | 'write'

/** What a handler may return instead of its plain output: another status, extra headers. */
export type Responded<T> = { kind: 'responded'; status: number; body: T; headers?: Record<string, string> }

export function respond<T>(status: number, body: T, headers?: Record<string, string>): Responded<T> {
  return { kind: 'responded', status, body, headers }
}

/** A long-lived answer written as it happens (Server-Sent Events). */
export type Streamed = {
  kind: 'stream'
  headers: Record<string, string>
  /**
   * Writes until done; `closed` resolves when the client goes away. A chunk may be bytes: an
   * event written to thousands of streams is serialized once.
   */
  run(sink: { write(chunk: string | Uint8Array): void; closed: Promise<void>; end(): void }): Promise<void>
}

export function stream(headers: Record<string, string>, run: Streamed['run']): Streamed {
  return { kind: 'stream', headers, run }
}

/** Facts about the request that are not part of the input (transport-neutral). */
export type RequestMeta = {
  /** Request headers, lower-cased names (HTTP only; empty for MCP and chat). */
  headers: Record<string, string | undefined>
  transport: 'http' | 'mcp' | 'chat'
  requestId: string
  /**
   * The client's network address as the HTTP server sees it (behind TRUST_PROXY, the one the
   * proxy reports); unset for MCP and chat. What a per-client bound counts (open event streams).
   */
  clientAddress?: string
}

/**
 * A port: one named dependency of the Context a handler may use (chain reads, db for the
 * repositories, a sender, cache, bus, baseUrl...).
 */
export type Port = keyof Context

/** The part of the Context a handler declared in `uses`. */
export type Ports<U extends Port> = Pick<Context, U>

/** A header an operation reads or writes, for the OpenAPI document (the schema is JSON Schema 2020-12). */
export type HeaderDoc = { name: string; description: string; required?: boolean; schema: Record<string, unknown> }

export type Operation<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType, U extends Port = Port> = {
  /** snake_case verb_noun: MCP tool name and OpenAPI operationId. */
  id: string
  method: HttpMethod
  /** OpenAPI-style path: `/api/metadata/{tokenId}`. */
  path: string
  summary: string
  description?: string
  tags: string[]
  /** One object: path parameters, then query (GET) or body (POST) fields. */
  input: I
  output: O
  /** Status of the main answer (default 200; the looksmaxx GET answers 402 by design). */
  status?: number
  /** Other documented answers that are not errors (e.g. 402 with payment requirements). */
  extraResponses?: Array<{ status: number; description: string; schema: z.ZodType }>
  /** Request headers the handler reads (e.g. x402 payment headers), documented in OpenAPI. */
  requestHeaders?: HeaderDoc[]
  /** Headers the handler writes on an answer of this status, documented in OpenAPI. */
  responseHeaders?: Record<number, HeaderDoc[]>
  /** Public error codes the handler may raise besides INVALID_INPUT and INTERNAL_ERROR. */
  errors: ErrorCode[]
  /**
   * Contracts the operation cannot answer without, among those a deployment may lack (MegaETH
   * mainnet has no DeFi addresses). Where one is absent every transport answers 503
   * NOT_DEPLOYED naming it, before the input is read; OpenAPI documents that answer.
   */
  requires?: readonly OptionalContractName[]
  /** Serve the same answer to the same input for this long (server side and Cache-Control). */
  cacheSeconds?: number
  /**
   * Past cacheSeconds, keep serving the last answer for this long while one refresh runs
   * (server side, and stale-while-revalidate in Cache-Control). Only for reads no transaction
   * is built from: a stale quote would revert on chain.
   */
  staleSeconds?: number
  /**
   * The data a cached answer depends on: a change of any of these topics (an indexed event, a
   * write of this service) makes the next read compute a new answer. cacheSeconds then only
   * bounds how long a change nobody announces (an ETH transfer, a profile edit) can go unseen.
   */
  dependsOn?: readonly Topic[]
  /** A write: once it succeeds, these topics changed, before its response is sent. */
  invalidates?: readonly Topic[]
  /**
   * The block a write's effect is in, read from its answer (a relay's receipt): the instance's
   * known block is raised to it directly, instead of being looked up in the database.
   */
  effectBlock?(output: z.output<O>): bigint | undefined
  /**
   * The canonical form of the input, when two inputs that parse differently ask the same
   * question (0.5 ETH as "0.5" or in wei): one question, one cache key. Default: the input.
   */
  canonicalInput?(input: z.output<I>): unknown
  /** Cache-Control override (e.g. no-cache for per-wallet plans). */
  cacheControl?: string
  /** The handler answers with `stream(...)` (Server-Sent Events), not one JSON body. */
  streams?: boolean
  /** Rate-limit class (default: `write` for POST, `read` for GET). */
  limit?: RateLimitClass
  /** Largest request body in bytes, when larger than BODY_LIMIT_BYTES (portrait uploads). */
  bodyLimit?: number
  /**
   * Exposed as an MCP tool of its own (default), as one variant of a grouped tool (the group
   * and the discriminator's value: operations/mcp-tools.ts), or not at all (false: a stream).
   */
  mcp?: boolean | { tool: ToolGroupName; as: string }
  /** Title of its tool (MCP), when the summary is too long for one. */
  title?: string
  /** See Effect (default from the method). */
  effect?: Effect
  /** A write that destroys or replaces something (MCP destructiveHint): a burn, an overwritten profile. */
  destructive?: boolean
  /** A write whose repetition with the same input has no further effect (MCP idempotentHint). */
  idempotent?: boolean
  /**
   * The ports the handler uses. The handler's `ctx` is typed as exactly these, and the runtime
   * hands it only these, so a test builds just what the operation needs. Default: the whole
   * Context (operations not yet narrowed).
   */
  uses?: readonly U[]
  handler(ctx: Ports<U>, input: z.output<I>, meta: RequestMeta): Promise<z.input<O> | Responded<unknown> | Streamed>
}

/** Defines a capability once; routes, MCP tools, OpenAPI and chat derive from it. */
export function defineOperation<I extends z.ZodType, O extends z.ZodType, const U extends Port = Port>(op: Operation<I, O, U>): Operation<I, O, U> {
  return op
}

/** The context a handler is given: its declared ports only, or the whole Context without `uses`. */
export function portsOf(op: { uses?: readonly Port[] }, ctx: Context): Context {
  if (!op.uses) return ctx
  // Typed as the whole Context for the registry's erased handlers; each handler's own type sees only its ports.
  return Object.fromEntries(op.uses.map((port) => [port, ctx[port]])) as unknown as Context
}

export type AnyOperation = Operation<z.ZodType, z.ZodType>

/** Names the registry's entries in Context (context.ts cannot import this layer). */
declare module '../context.ts' {
  interface Registry {
    operation: AnyOperation
  }
}
