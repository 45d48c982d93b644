import { z } from 'zod'
import { defineOperation } from '../define.ts'
import { mcpTools } from '../mcp-tools.ts'
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
  mcp: { tool: 'get_discovery_document', as: 'mcp_manifest' },
  uses: ['operations', 'baseUrl'],
  async handler(ctx) {
    const tools = mcpTools(ctx.operations)
    return {
      name: 'burn-to-create',
      version: '1.0.0',
      transport: { type: 'streamable-http', url: `${ctx.baseUrl()}${MCP_PATH}`, stateless: true },
      toolCount: tools.length,
      tools: tools.map((tool) => ({ name: tool.name, title: tool.title, description: tool.description, ...(tool.key ? { [tool.key]: tool.variants.map((v) => v.value!) } : {}) })),
    }
  },
})
