import { randomUUID } from 'node:crypto'
import type { z } from 'zod'
import type { Context } from '../context.ts'
import { absentFor } from '../chain/not-deployed.ts'
import type { AnyOperation, HttpMethod } from '../operations/define.ts'
import { valueOf } from '../operations/runtime/serve.ts'
import { toAppError } from '../operations/runtime/errors.ts'

/**
 * What chat needs of an operation of the registry, taken by value (`getPrice`, not
 * "get_price"): its schemas type what an intent builds and what it receives.
 */
export type ChatOperation = { id: string; method: HttpMethod; path: string; input: z.ZodType; output: z.ZodType }

/** The raw input of an operation (a query or body, before its schema parses it). */
export type InputOf<Op extends ChatOperation> = z.input<Op['input']>
/** What the operation answers: its output schema's parsed type. */
export type OutputOf<Op extends ChatOperation> = z.output<Op['output']>

/** An operation's answer, or its refusal with the public error code and message. */
export type Outcome<T> = { ok: true; data: T } | { ok: false; code: string; message: string }

/** A suggested next call: a valid call of this API (method + path exist, body parses). */
export type ChatAction = {
  label: string
  /** Path with the query string for GET (the query parameters are in `body` too). */
  endpoint: string
  method: HttpMethod
  /** GET: the query parameters; POST: the JSON body. */
  body: Record<string, unknown>
  /** The operation (MCP tool) behind the endpoint. */
  operationId: string
}

/** A call to suggest: an operation, its input, and a label for the person or agent reading it. */
export type Call = { operation: ChatOperation; input: Record<string, unknown>; label: string }

/** A call of `operation`, its input checked against the operation's input type. */
export function call<Op extends ChatOperation>(operation: Op, input: InputOf<Op>, label: string): Call {
  return { operation, input: input as Record<string, unknown>, label }
}

export type Runner = {
  /** The operation is deployed here (in the registry of this context). */
  has(operation: ChatOperation): boolean
  /** Runs a read of the registry (chat never writes: a POST is refused without being run). */
  run<Op extends ChatOperation>(operation: Op, input: InputOf<Op>): Promise<Outcome<OutputOf<Op>>>
  /** The call as an action of this API, or undefined when it is not deployed or would be refused. */
  action(call: Call): ChatAction | undefined
}

/**
 * The one place chat calls an operation: through the runtime's serving as HTTP and MCP do (input
 * parsed and output serialized by the operation's schemas, the response cache, freshness). Its
 * reads are nested in the chat request, which its own limits counted.
 */
async function callOperation(ctx: Context, op: AnyOperation, raw: unknown): Promise<{ status: number; body: unknown }> {
  const served = await ctx.serving.call(op, raw, { transport: 'chat', requestId: randomUUID(), nested: true })
  return { status: served.status, body: valueOf(served) }
}

/** The runner of one chat request over this context's registry. */
export function createRunner(ctx: Context): Runner {
  const deployed = new Set(ctx.operations.map((op) => op.id))
  // A call to suggest must work here: not one whose contracts this network lacks (it would answer 503 NOT_DEPLOYED).
  const suggestable = (op: ChatOperation) => deployed.has(op.id) && absentFor(op as unknown as AnyOperation, ctx.chain.contracts).length === 0
  return {
    has: (operation) => deployed.has(operation.id),
    async run(operation, raw) {
      const op = operation as unknown as AnyOperation
      if (!deployed.has(op.id)) return { ok: false, code: 'NOT_FOUND', message: `${op.id} is not available on this deployment.` }
      if (op.method !== 'GET') return { ok: false, code: 'INVALID_INPUT', message: `${op.id} is a write (${op.method} ${op.path}): the chat only suggests it.` }
      try {
        const { status, body } = await callOperation(ctx, op, raw)
        if (status >= 400) {
          const error = (body as { error?: { code?: string; message?: string } })?.error
          return { ok: false, code: error?.code ?? `HTTP_${status}`, message: error?.message ?? `answered ${status}` }
        }
        // Serialized through the operation's own output schema by the runtime.
        return { ok: true, data: body as OutputOf<typeof operation> }
      } catch (error) {
        const appError = toAppError(error)
        if (appError.status >= 500) ctx.log.error({ err: error, operation: op.id }, 'chat call failed')
        return { ok: false, code: appError.code, message: appError.code === 'INTERNAL_ERROR' ? 'internal error' : appError.message }
      }
    },
    action({ operation, input, label }) {
      if (!suggestable(operation)) return undefined
      const body = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined))
      // A suggestion must be a valid call: it is dropped if the operation would refuse it.
      if (!operation.input.safeParse(body).success) return undefined
      let path = operation.path
      const query: Record<string, unknown> = {}
      for (const [key, value] of Object.entries(body)) {
        if (path.includes(`{${key}}`)) path = path.replace(`{${key}}`, encodeURIComponent(String(value)))
        else query[key] = value
      }
      const qs = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString()
      return {
        label,
        endpoint: operation.method === 'GET' && qs ? `${path}?${qs}` : path,
        method: operation.method,
        body: operation.method === 'GET' ? query : body,
        operationId: operation.id,
      }
    },
  }
}
