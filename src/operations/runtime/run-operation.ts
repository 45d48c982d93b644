import type { Context } from '../../context.ts'
import { portsOf, type AnyOperation, type RequestMeta, type Responded } from '../define.ts'
import { etagOf, type CachedResponse } from '../../cache/response-cache.ts'
import { AppError } from '../../errors/app-error.ts'
import { catchUp } from '../../cache/catch-up.ts'

function isResponded(value: unknown): value is Responded<unknown> {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'responded'
}

/**
 * Runs a handler on parsed input and returns its serialized answer. The output goes
 * through the operation's schema, so fields the schema does not name never leave.
 */
export async function runOperation(
  ctx: Context,
  op: AnyOperation,
  input: unknown,
  meta: RequestMeta,
): Promise<{ status: number; body: unknown; headers?: Record<string, string> }> {
  const result = await op.handler(portsOf(op, ctx), input, meta)
  if (op.invalidates && (!isResponded(result) || result.status < 400)) {
    // Read-your-writes: whatever a write changed is applied here (and published to the other
    // instances) before its answer leaves, so every read served after it shows the effect.
    // The known block first catches up with the write's block: from its answer when the
    // operation can say it, else from the database (the mint or relay block).
    const block = op.effectBlock && !isResponded(result) ? op.effectBlock(result) : undefined
    if (block !== undefined) ctx.fresh.reached(block)
    else await catchUp(ctx.db, ctx.fresh, 0n, 0)
    await ctx.fresh.changed(op.invalidates, ctx.fresh.block())
  }
  if ((result as { kind?: string })?.kind === 'stream') {
    throw new AppError('INTERNAL_ERROR', 'internal error', { cause: new Error(`${op.id} streams; it has no single answer`) })
  }
  if (isResponded(result)) {
    if (result.body instanceof Uint8Array) {
      // JSON a read model serialized already (gallery, chadboard: validated fragment by
      // fragment) goes out as is over HTTP; MCP and chat get the value.
      const json = meta.transport !== 'http' && result.headers?.['content-type']?.startsWith('application/json')
      return { status: result.status, body: json ? JSON.parse(Buffer.from(result.body).toString('utf8')) : result.body, headers: result.headers }
    }
    const body = result.status === (op.status ?? 200) ? serializeOutput(op, result.body) : result.body
    return { status: result.status, body, headers: result.headers }
  }
  return { status: op.status ?? 200, body: serializeOutput(op, result) }
}

function serializeOutput(op: AnyOperation, value: unknown): unknown {
  const parsed = op.output.safeParse(value)
  if (!parsed.success) {
    // A handler broke its own contract: a bug, never the caller's fault.
    throw new AppError('INTERNAL_ERROR', 'internal error', {
      cause: new Error(`Output of ${op.id} does not match its schema: ${parsed.error.message}`),
    })
  }
  return parsed.data
}

/** Runs and serializes to bytes once, for the response cache. */
export async function runOperationToBytes(
  ctx: Context,
  op: AnyOperation,
  input: unknown,
  meta: RequestMeta,
): Promise<CachedResponse> {
  const { status, body, headers } = await runOperation(ctx, op, input, meta)
  const bytes = Buffer.isBuffer(body) ? body : body instanceof Uint8Array ? Buffer.from(body) : Buffer.from(JSON.stringify(body))
  // A handler that knows its validator (a read model's page) spares hashing the whole answer.
  return { status, bytes, etag: headers?.etag ?? etagOf(bytes), headers }
}
