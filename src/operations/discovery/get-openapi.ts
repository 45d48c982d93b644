import { z } from 'zod'
import { buildOpenApi } from '../runtime/openapi.ts'
import { defineOperation } from '../define.ts'
import { mcpTools } from '../mcp-tools.ts'
import { isRateLimited } from '../runtime/limits.ts'

export const getOpenApi = defineOperation({
  id: 'get_openapi',
  method: 'GET',
  path: '/.well-known/openapi.json',
  summary: 'OpenAPI 3.1 description of every endpoint, generated from the operations registry',
  tags: ['discovery'],
  input: z.object({}),
  output: z.looseObject({ openapi: z.string(), info: z.object({ title: z.string(), version: z.string() }) }),
  errors: [],
  cacheSeconds: 3600,
  staleSeconds: 3600,
  mcp: { tool: 'get_discovery_document', as: 'openapi' },
  uses: ['operations', 'baseUrl', 'config'],
  async handler(ctx) {
    return buildOpenApi(ctx.operations, {
      baseUrl: ctx.baseUrl(),
      mcp: { toolCount: mcpTools(ctx.operations).length },
      rateLimited: (op) => isRateLimited(ctx.config, op),
    })
  },
})
