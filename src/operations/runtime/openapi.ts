import type { AnyOperation } from '../define.ts'
import { jsonSchemaOf, type JsonSchema } from '../json-schema.ts'
import { errorCodes } from '../../errors/codes.ts'
import { errorBody } from '../schemas.ts'
import type { HeaderDoc } from '../define.ts'
import { MCP_PATH } from './paths.ts'

const alwaysPossible = ['INVALID_INPUT', 'INTERNAL_ERROR'] as const

/** The OpenAPI 3.1 document, derived from the registry alone. */
export function buildOpenApi(
  operations: AnyOperation[],
  options: { baseUrl: string; mcp?: { toolCount: number }; /** Whether the operation can answer 429 (its class's limits as configured). */ rateLimited?: (op: AnyOperation) => boolean },
) {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const op of operations) {
    const input = jsonSchemaOf(op.input, 'input')
    const properties = (input.properties ?? {}) as Record<string, JsonSchema>
    const required = new Set((input.required ?? []) as string[])
    const pathParams = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!)

    const parameters = Object.entries(properties)
      .filter(([name]) => op.method === 'GET' || pathParams.includes(name))
      .map(([name, schema]) => ({
        name,
        in: pathParams.includes(name) ? 'path' : 'query',
        required: pathParams.includes(name) || required.has(name),
        ...(schema.description ? { description: schema.description } : {}),
        schema,
      }))

    // Reads renewed by events take a block they must be at least as new as (see
    // docs/agents/consistency.md), and say which block they are exact as of.
    const fresh = op.method === 'GET' && op.dependsOn
    if (fresh) {
      const block = { type: 'string', pattern: '^\\d{1,20}$' }
      parameters.push(
        { name: 'minBlock', in: 'query', required: false, description: 'Answer at least as new as this block (e.g. the X-Block-Number of your write)', schema: block },
        { name: 'X-Min-Block', in: 'header', required: false, description: 'Same as minBlock', schema: block },
      )
    }

    for (const header of op.requestHeaders ?? []) {
      parameters.push({ name: header.name, in: 'header', required: header.required ?? false, description: header.description, schema: header.schema } as (typeof parameters)[number])
    }

    let requestBody: unknown
    if (op.method === 'POST') {
      const bodyProps = Object.fromEntries(Object.entries(properties).filter(([name]) => !pathParams.includes(name)))
      requestBody = {
        required: required.size > 0,
        content: {
          'application/json': {
            schema: {
              ...input,
              properties: bodyProps,
              ...(input.required
                ? { required: (input.required as string[]).filter((n) => !pathParams.includes(n)) }
                : {}),
            },
          },
        },
      }
    }

    const errorStatuses = new Map<number, string[]>()
    // Refusals made before the handler: the rate limit of the operation's class, and for a body,
    // its size and media type.
    // And a deployment without a contract the operation requires (MegaETH mainnet's DeFi side).
    const transport = [
      ...(options.rateLimited?.(op) ? (['RATE_LIMITED'] as const) : []),
      ...(op.method === 'POST' ? (['PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'] as const) : []),
      ...(op.requires?.length ? (['NOT_DEPLOYED'] as const) : []),
    ]
    for (const code of new Set([...alwaysPossible, ...op.errors, ...transport])) {
      const { status } = errorCodes[code]
      errorStatuses.set(status, [...(errorStatuses.get(status) ?? []), code])
    }
    const responses: Record<string, unknown> = {
      [String(op.status ?? 200)]: {
        description: op.status === 402 ? 'Payment required (always): the payment and burn requirements' : 'Success',
        ...(fresh || op.invalidates
          ? { headers: { 'X-Block-Number': { description: fresh ? 'The block this answer is exact as of' : 'The block the effect of this write is in', schema: { type: 'string' } } } }
          : {}),
        content: { 'application/json': { schema: jsonSchemaOf(op.output, 'output') } },
      },
    }
    for (const extra of op.extraResponses ?? []) {
      responses[String(extra.status)] = {
        description: extra.description,
        content: { 'application/json': { schema: jsonSchemaOf(extra.schema, 'output') } },
      }
    }
    for (const [status, codes] of [...errorStatuses].sort((a, b) => a[0] - b[0])) {
      if (responses[String(status)]) continue
      responses[String(status)] = {
        description: codes.map((code) => `${code}: ${errorCodes[code as keyof typeof errorCodes].meaning}`).join(' '),
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      }
    }

    const limited = responses['429'] as { headers?: Record<string, unknown> } | undefined
    if (limited) {
      limited.headers = {
        'Retry-After': { description: 'Seconds until the window resets', schema: { type: 'string' } },
        'X-RateLimit-Limit': { description: 'Requests allowed per window', schema: { type: 'string' } },
        'X-RateLimit-Remaining': { description: 'Requests left in the window', schema: { type: 'string' } },
        ...limited.headers,
      }
    }
    for (const [status, headers] of Object.entries(op.responseHeaders ?? {})) {
      const response = responses[status] as { headers?: Record<string, unknown> } | undefined
      if (response) response.headers = { ...response.headers, ...headerObjects(headers) }
    }

    paths[op.path] ??= {}
    paths[op.path]![op.method.toLowerCase()] = {
      operationId: op.id,
      summary: op.summary,
      ...(op.description ? { description: op.description } : {}),
      tags: op.tags,
      ...(parameters.length ? { parameters } : {}),
      ...(requestBody ? { requestBody } : {}),
      responses,
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Burn-to-create portrait service',
      version: '1.0.0',
      description:
        'Burn 225,000 service tokens, pay 1 USDm with x402, upload a portrait, receive an AI-enhanced portrait pinned to IPFS and minted as an NFT on chain 4326.',
    },
    servers: [{ url: options.baseUrl }],
    paths: options.mcp ? { ...paths, [MCP_PATH]: mcpPathItem(options.mcp.toolCount) } : paths,
    components: {
      schemas: {
        Error: jsonSchemaOf(errorBody, 'output'),
        ...(options.mcp ? { JsonRpcMessage: jsonRpcMessage, JsonRpcResponse: jsonRpcResponse, JsonRpcError: jsonRpcError } : {}),
      },
    },
  }
}

function headerObjects(headers: HeaderDoc[]): Record<string, unknown> {
  return Object.fromEntries(headers.map((h) => [h.name, { description: h.description, ...(h.required ? { required: true } : {}), schema: h.schema }]))
}

/** JSON-RPC 2.0 as MCP uses it (a request, a notification, or a response to a server request). */
const jsonRpcId = { type: ['string', 'integer'] }
const jsonRpcMessage = {
  type: 'object',
  description: 'One JSON-RPC 2.0 message: a request (with id), a notification (no id) or a response. MCP methods: initialize, notifications/initialized, ping, tools/list, tools/call.',
  properties: {
    jsonrpc: { const: '2.0' },
    id: jsonRpcId,
    method: { type: 'string', examples: ['initialize', 'notifications/initialized', 'ping', 'tools/list', 'tools/call'] },
    params: { type: 'object', description: 'tools/call: {name, arguments, _meta?}; a paid tool takes its x402 payment in _meta["x402/payment"].' },
    result: {},
    error: { $ref: '#/components/schemas/JsonRpcError/properties/error' },
  },
  required: ['jsonrpc'],
}
const jsonRpcResponse = {
  type: 'object',
  description: 'The JSON-RPC 2.0 response to the request: a result (tools/call: {content, structuredContent?, isError?, _meta}) or an error.',
  properties: { jsonrpc: { const: '2.0' }, id: jsonRpcId, result: { type: 'object' }, error: { $ref: '#/components/schemas/JsonRpcError/properties/error' } },
  required: ['jsonrpc', 'id'],
}
const jsonRpcError = {
  type: 'object',
  description: 'A JSON-RPC 2.0 error (-32700 parse error, -32600 invalid request, -32601 method not found, -32602 invalid params, -32603 internal, -32000 transport).',
  properties: {
    jsonrpc: { const: '2.0' },
    id: { type: ['string', 'integer', 'null'] },
    error: { type: 'object', properties: { code: { type: 'integer' }, message: { type: 'string' }, data: {} }, required: ['code', 'message'] },
  },
  required: ['jsonrpc', 'error'],
}

/**
 * The MCP Streamable HTTP endpoint (src/mcp/, mounted beside the registry): stateless, JSON
 * responses, POST only. Its tools are the registry's operations; their schemas are in tools/list.
 */
function mcpPathItem(toolCount: number) {
  const rpcError = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/JsonRpcError' } } } })
  const notAllowed = (method: string) => ({
    operationId: `mcp_${method}`,
    summary: `MCP Streamable HTTP ${method.toUpperCase()}: not served (stateless server, POST only)`,
    tags: ['mcp'],
    responses: {
      405: {
        ...rpcError('Method not allowed: no server-to-client stream and no session to end.'),
        headers: { Allow: { description: 'POST', schema: { type: 'string', const: 'POST' } } },
      },
    },
  })
  return {
    post: {
      operationId: 'mcp',
      summary: `MCP server (Streamable HTTP, JSON-RPC 2.0): ${toolCount} tools, one per operation`,
      description:
        'Send one JSON-RPC 2.0 message per POST with Content-Type: application/json and Accept: application/json, text/event-stream. The server is stateless: it issues no Mcp-Session-Id and needs no initialize before tools/list or tools/call; every request is answered with application/json. Tool failures (invalid input, business rules, upstream errors) are results with isError: true carrying the HTTP error body and request id, not transport errors. x402 over MCP: the paid tool answers an unpaid call with the payment requirements and takes the payment in params._meta["x402/payment"]; the settlement comes back in _meta["x402/payment-response"]. Manifest: /.well-known/mcp.json.',
      tags: ['mcp'],
      parameters: [
        {
          name: 'MCP-Protocol-Version',
          in: 'header',
          required: false,
          description: 'Negotiated MCP protocol version (e.g. 2025-11-25); without it 2025-03-26 is assumed; an unsupported version is 400.',
          schema: { type: 'string', examples: ['2025-11-25', '2025-06-18', '2025-03-26'] },
        },
        {
          name: 'Mcp-Session-Id',
          in: 'header',
          required: false,
          description: 'Accepted and ignored: the server is stateless and never issues a session id.',
          schema: { type: 'string' },
        },
      ],
      requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/JsonRpcMessage' } } } },
      responses: {
        200: {
          description: 'The JSON-RPC response (also a JSON-RPC error such as -32601 method not found or -32602 unknown tool).',
          headers: { 'X-Request-Id': { description: 'The request id; tool errors name it in details.requestId', schema: { type: 'string' } } },
          content: { 'application/json': { schema: { $ref: '#/components/schemas/JsonRpcResponse' } } },
        },
        202: { description: 'A notification or response was accepted (empty body).' },
        400: rpcError('Parse error, invalid JSON-RPC message or unsupported MCP-Protocol-Version.'),
        406: rpcError('Accept does not list both application/json and text/event-stream.'),
        413: { description: 'PAYLOAD_TOO_LARGE: the body is larger than the limit.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
        415: rpcError('Content-Type is not application/json.'),
        429: { description: 'RATE_LIMITED: too many MCP requests from this client (Retry-After says when to retry).', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
      },
    },
    get: notAllowed('get'),
    delete: notAllowed('delete'),
  }
}
