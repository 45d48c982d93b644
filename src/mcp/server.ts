import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { randomUUID } from 'node:crypto'
import type { Context } from '../context.ts'
import { mcpToolOperations, type AnyOperation } from '../operations/define.ts'
import { jsonSchemaOf } from '../operations/json-schema.ts'
import { toAppError } from '../operations/runtime/errors.ts'
import { parseMinBlock, valueOf, type Serving } from '../operations/runtime/serve.ts'
import { MCP_PATH } from '../operations/runtime/paths.ts'
import { isPaidOperation, paidOutputSchema, paymentHeadersOf, paymentRequiredOf, paymentResponseMetaOf } from './x402-binding.ts'

export { MCP_PATH }

function describeTools(operations: AnyOperation[]) {
  return mcpToolOperations(operations).map((op) => ({
      name: op.id,
      title: op.summary,
      description: `${op.summary}${op.description ? `\n\n${op.description}` : ''}\n\nHTTP: ${op.method} ${op.path}`,
      inputSchema: { type: 'object' as const, ...jsonSchemaOf(op.input, 'input') },
      outputSchema: {
        type: 'object' as const,
        ...(isPaidOperation(op) ? paidOutputSchema(jsonSchemaOf(op.output, 'output')) : jsonSchemaOf(op.output, 'output')),
      },
      annotations: { readOnlyHint: op.method === 'GET', openWorldHint: true },
    }))
}

/**
 * The SDK, imported on the first MCP request: with its dependencies it is some 60 modules that a
 * start (and a process that never serves MCP) need not load before it is ready.
 */
let sdk: Promise<[typeof import('@modelcontextprotocol/sdk/server/index.js'), typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js'), typeof import('@modelcontextprotocol/sdk/types.js')]> | undefined
function loadSdk() {
  return (sdk ??= Promise.all([
    import('@modelcontextprotocol/sdk/server/index.js'),
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]))
}

/** Who sends the MCP request: the client address its tool calls are counted under. */
export type McpCaller = { requestId: () => string; address?: string }

/**
 * One MCP server over the registry: every operation is a tool with the same schemas, served by
 * the same runtime as its HTTP route (limits of its class and wallet, cache, freshness).
 */
export async function createMcpServer(ctx: Context, operations: AnyOperation[], serving: Serving, caller: McpCaller = { requestId: randomUUID }): Promise<Server> {
  const [{ Server }, , { CallToolRequestSchema, ListToolsRequestSchema, McpError, ErrorCode }] = await loadSdk()
  const byId = new Map(mcpToolOperations(operations).map((op) => [op.id, op]))
  const tools = describeTools(operations)
  const server = new Server(
    { name: 'burn-to-create', version: '1.0.0', title: 'Burn-to-create portrait service' },
    {
      capabilities: { tools: {} },
      instructions:
        'Tools mirror the HTTP API one to one. Transaction builders return unsigned transactions for your wallet to send.',
    },
  )
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }))
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    // The same request ID as HTTP: the X-Request-Id of the POST that carried this call.
    const id = caller.requestId()
    const op = byId.get(request.params.name)
    // A malformed request, not a failure of a tool: a JSON-RPC error, as MCP says.
    if (!op) throw new McpError(ErrorCode.InvalidParams, `Unknown tool ${request.params.name}: tools/list names the ${byId.size} tools.`)
    try {
      const meta = request.params._meta as Record<string, unknown> | undefined
      // x402 over MCP: the payment travels in _meta, as the HTTP binding's headers.
      const served = await serving.call(op, request.params.arguments ?? {}, {
        transport: 'mcp',
        requestId: id,
        headers: paymentHeadersOf(meta),
        address: caller.address,
        // The X-Min-Block of HTTP: an answer at least as new as the block a write returned.
        minBlock: parseMinBlock(meta?.minBlock === undefined ? undefined : String(meta.minBlock)),
      })
      const { status, headers } = served
      const body = valueOf(served)
      // The operation's main answer matches its output schema: structured content plus text.
      const main = status === (op.status ?? 200)
      const paymentRequired = main ? undefined : paymentRequiredOf(status, headers)
      if (paymentRequired) return toolError(paymentRequired, id, true)
      if (status >= 400) return toolError(body, id, main)
      const result: CallToolResult = {
        content: [{ type: 'text', text: JSON.stringify(body) }],
        _meta: { requestId: id, ...(served.block !== undefined ? { blockNumber: served.block.toString() } : {}), ...paymentResponseMetaOf(headers) },
      }
      if (main) result.structuredContent = body as Record<string, unknown>
      return result
    } catch (error) {
      const appError = toAppError(error)
      if (appError.status >= 500) ctx.log.error({ err: error, tool: op.id, requestId: id }, 'tool failed')
      const body = appError.code === 'INTERNAL_ERROR' ? { error: { code: appError.code, message: 'internal error' } } : appError.toBody()
      return toolError(body, id)
    }
  })
  return server
}

type ErrorBody = { error: { code: string; message: string; details?: Record<string, unknown> } }

function isErrorBody(body: unknown): body is ErrorBody {
  const error = (body as Partial<ErrorBody> | null)?.error
  return typeof error === 'object' && error !== null && typeof error.code === 'string'
}

/**
 * A tool error (not a transport failure). An error body is the HTTP one plus details.requestId, as
 * text only: structuredContent must match the tool's output schema (clients validate it, errors
 * included). A non-error answer at 4xx (x402 payment requirements) keeps its body as is.
 */
function toolError(body: unknown, requestId: string, structured = false): CallToolResult {
  const _meta = { requestId }
  if (isErrorBody(body)) {
    const withId = { ...body, error: { ...body.error, details: { ...body.error.details, requestId } } }
    return { isError: true, content: [{ type: 'text', text: JSON.stringify(withId) }], _meta }
  }
  const result: CallToolResult = { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }], _meta }
  if (structured) result.structuredContent = body as Record<string, unknown>
  return result
}

/**
 * A body that is not JSON is answered as JSON-RPC answers it (-32700, id null), since the
 * client speaks JSON-RPC; every other error (a rate limit, a body too large) goes on to the
 * app's handler and its error body.
 */
function jsonRpcParseErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  if (error.code !== 'FST_ERR_CTP_INVALID_JSON_BODY' && error.code !== 'FST_ERR_CTP_EMPTY_JSON_BODY') throw error
  reply.code(400).type('application/json').send({ jsonrpc: '2.0', error: { code: -32700, message: `Parse error: ${error.message}` }, id: null })
}

/**
 * Streamable HTTP, stateless: a fresh server and transport per POST, as the SDK requires. One
 * JSON-RPC message per POST: a batch (an array) is refused, so every tool call is its own request,
 * counted by the limits of its operation like the HTTP route (MCP 2025-06-18 removed batches).
 */
export function mountMcp(app: FastifyInstance, ctx: Context, operations: AnyOperation[], serving: Serving) {
  // The POST itself counts as a read (unlimited by default); each tool call counts as its operation.
  const admit = async (request: FastifyRequest) => void (await serving.limits.checkAddress('read', request.ip))
  app.post(MCP_PATH, { errorHandler: jsonRpcParseErrors, config: { hostCheck: true }, onRequest: admit }, async (request, reply) => {
    if (Array.isArray(request.body)) {
      return reply
        .code(400)
        .type('application/json')
        .send({ jsonrpc: '2.0', error: { code: -32600, message: 'Invalid Request: JSON-RPC batches are not accepted; send one message per POST (MCP 2025-06-18 removed batching).' }, id: null })
    }
    const server = await createMcpServer(ctx, operations, serving, { requestId: () => request.id, address: request.ip })
    const [, { StreamableHTTPServerTransport }] = await loadSdk()
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
    reply.hijack()
    // The transport writes the raw response: carry the X-Request-Id and the security headers
    // as HTTP routes do (tool errors name the request ID).
    for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(name, value as string)
    reply.raw.on('close', () => {
      void transport.close()
      void server.close()
    })
    await server.connect(transport)
    await transport.handleRequest(request.raw, reply.raw, request.body)
  })
  const notAllowed = async (_request: unknown, reply: import('fastify').FastifyReply) => {
    reply
      .code(405)
      .header('allow', 'POST')
      .send({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this server is stateless, POST only.' }, id: null })
  }
  app.get(MCP_PATH, { config: { hostCheck: true } }, notAllowed)
  app.delete(MCP_PATH, { config: { hostCheck: true } }, notAllowed)
}
