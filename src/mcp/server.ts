import type { FastifyInstance } from 'fastify'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { randomUUID } from 'node:crypto'
import type { Context } from '../context.ts'
import type { AnyOperation } from '../operations/define.ts'
import { jsonSchemaOf } from '../operations/json-schema.ts'
import { parseOperationInput } from '../operations/runtime/parse-input.ts'
import { runOperation } from '../operations/runtime/run-operation.ts'
import { toAppError } from '../operations/runtime/errors.ts'
import { MCP_PATH } from '../operations/runtime/paths.ts'

export { MCP_PATH }

function describeTools(operations: AnyOperation[]) {
  return operations
    .filter((op) => op.mcp !== false)
    .map((op) => ({
      name: op.id,
      title: op.summary,
      description: `${op.summary}${op.description ? `\n\n${op.description}` : ''}\n\nHTTP: ${op.method} ${op.path}`,
      inputSchema: { type: 'object' as const, ...jsonSchemaOf(op.input, 'input') },
      outputSchema: { type: 'object' as const, ...jsonSchemaOf(op.output, 'output') },
      annotations: { readOnlyHint: op.method === 'GET', openWorldHint: true },
    }))
}

/** One MCP server over the registry: every operation is a tool with the same schemas. */
export function createMcpServer(ctx: Context, operations: AnyOperation[]): Server {
  const byId = new Map(operations.filter((op) => op.mcp !== false).map((op) => [op.id, op]))
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
    const op = byId.get(request.params.name)
    if (!op) {
      return { isError: true, content: [{ type: 'text', text: `Unknown tool ${request.params.name}.` }] }
    }
    try {
      const input = parseOperationInput(op, request.params.arguments ?? {})
      const { status, body } = await runOperation(ctx, op, input, {
        headers: {},
        transport: 'mcp',
        requestId: randomUUID(),
      })
      const text = JSON.stringify(body)
      if (status >= 400) {
        return { isError: true, content: [{ type: 'text', text }], structuredContent: body as Record<string, unknown> }
      }
      return { content: [{ type: 'text', text }], structuredContent: body as Record<string, unknown> }
    } catch (error) {
      const appError = toAppError(error)
      if (appError.status >= 500) ctx.log.error({ err: error, tool: op.id }, 'tool failed')
      const body = appError.code === 'INTERNAL_ERROR' ? { error: { code: appError.code, message: 'internal error' } } : appError.toBody()
      return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }] }
    }
  })
  return server
}

/** Streamable HTTP, stateless: a fresh server and transport per POST, as the SDK requires. */
export function mountMcp(app: FastifyInstance, ctx: Context, operations: AnyOperation[]) {
  app.post(MCP_PATH, async (request, reply) => {
    const server = createMcpServer(ctx, operations)
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
    reply.hijack()
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
