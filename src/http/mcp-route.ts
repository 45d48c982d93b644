import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Context } from '../context.ts'
import type { AnyOperation } from '../operations/define.ts'
import type { Serving } from '../operations/runtime/serve.ts'
import { MCP_PATH } from '../operations/runtime/paths.ts'
import { createMcpServer, loadSdk } from '../mcp/server.ts'

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
export function mountMcpRoute(app: FastifyInstance, ctx: Context, operations: AnyOperation[], serving: Serving) {
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
