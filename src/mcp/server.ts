import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { randomUUID } from 'node:crypto'
import type { Context } from '../context.ts'
import { mcpToolOperations, type AnyOperation } from '../operations/define.ts'
import { jsonSchemaOf } from '../operations/json-schema.ts'
import { parseOperationInput } from '../operations/runtime/parse-input.ts'
import { runOperation } from '../operations/runtime/run-operation.ts'
import { toAppError } from '../operations/runtime/errors.ts'
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

/** One MCP server over the registry: every operation is a tool with the same schemas. */
export async function createMcpServer(ctx: Context, operations: AnyOperation[], requestId: () => string = randomUUID): Promise<Server> {
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
    const id = requestId()
    const op = byId.get(request.params.name)
    // A malformed request, not a failure of a tool: a JSON-RPC error, as MCP says.
    if (!op) throw new McpError(ErrorCode.InvalidParams, `Unknown tool ${request.params.name}: tools/list names the ${byId.size} tools.`)
    try {
      const input = parseOperationInput(op, request.params.arguments ?? {})
      // x402 over MCP: the payment travels in _meta, as the HTTP binding's headers.
      const { status, body, headers } = await runOperation(ctx, op, input, {
        headers: paymentHeadersOf(request.params._meta),
        transport: 'mcp',
        requestId: id,
      })
      // The operation's main answer matches its output schema: structured content plus text.
      const main = status === (op.status ?? 200)
      const paymentRequired = main ? undefined : paymentRequiredOf(status, headers)
      if (paymentRequired) return toolError(paymentRequired, id, true)
      if (status >= 400) return toolError(body, id, main)
      const result: CallToolResult = {
        content: [{ type: 'text', text: JSON.stringify(body) }],
        _meta: { requestId: id, ...paymentResponseMetaOf(headers) },
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

/** Streamable HTTP, stateless: a fresh server and transport per POST, as the SDK requires. */
export function mountMcp(app: FastifyInstance, ctx: Context, operations: AnyOperation[]) {
  app.post(MCP_PATH, { errorHandler: jsonRpcParseErrors }, async (request, reply) => {
    const server = await createMcpServer(ctx, operations, () => request.id)
    const [, { StreamableHTTPServerTransport }] = await loadSdk()
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
    reply.hijack()
    // The transport writes the raw response: carry the X-Request-Id as HTTP routes do (tool errors name it).
    reply.raw.setHeader('x-request-id', request.id)
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
  app.get(MCP_PATH, notAllowed)
  app.delete(MCP_PATH, notAllowed)
}
