import { z } from 'zod'
import { buildOpenApi } from '../runtime/openapi.ts'
import { defineOperation, mcpToolOperations } from '../define.ts'
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
  mcp: false,
  uses: ['operations', 'baseUrl', 'config'],
  async handler(ctx) {
    return buildOpenApi(ctx.operations, {
      baseUrl: ctx.baseUrl(),
      mcp: { toolCount: mcpToolOperations(ctx.operations).length },
      rateLimited: (op) => isRateLimited(ctx.config, op),
    })
  },
})
