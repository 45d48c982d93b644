import { z } from 'zod'
import { defineOperation, mcpToolOperations } from '../define.ts'
import { jsonDocument } from './text-answer.ts'
import { MCP_PATH } from '../runtime/paths.ts'

export const getMcpManifest = defineOperation({
  id: 'get_mcp_manifest',
  method: 'GET',
  path: '/.well-known/mcp.json',
  summary: 'MCP server manifest: endpoint, transport and tools',
  tags: ['discovery'],
  input: z.object({}),
  output: jsonDocument,
  errors: [],
  cacheSeconds: 3600,
  staleSeconds: 3600,
  mcp: false,
  uses: ['operations', 'baseUrl'],
  async handler(ctx) {
    const tools = mcpToolOperations(ctx.operations)
    return {
      name: 'burn-to-create',
      version: '1.0.0',
      transport: { type: 'streamable-http', url: `${ctx.baseUrl()}${MCP_PATH}`, stateless: true },
      toolCount: tools.length,
      tools: tools.map((op) => ({ name: op.id, description: op.summary })),
    }
  },
})
