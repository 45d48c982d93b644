import { z } from 'zod'
import { defineOperation } from '../define.ts'
import { buildRegistration, registrationSchema } from '../agent/get-agent-info.ts'

export const getAgentRegistration = defineOperation({
  id: 'get_agent_registration',
  method: 'GET',
  path: '/.well-known/agent-registration.json',
  summary: 'ERC-8004 registration file of the service (its agent URI)',
  tags: ['discovery'],
  input: z.object({}),
  output: registrationSchema,
  errors: [],
  cacheSeconds: 3600,
  staleSeconds: 3600,
  mcp: { tool: 'get_discovery_document', as: 'agent_registration' },
  uses: ['chain', 'baseUrl', 'receipts'],
  async handler(ctx) {
    return buildRegistration(ctx)
  },
})
