import { z } from 'zod'
import { defineOperation } from '../define.ts'
import { protocolDirectory, DIRECTORY_UPDATED } from '../../data/protocols.ts'
import type { ContractName } from '../../chain/contract-names.ts'

export const getPortalProtocols = defineOperation({
  id: 'get_portal_protocols',
  // HTTP only: get_service_protocol lists the contracts.
  mcp: { tool: 'get_portal', as: 'protocols' },
  method: 'GET',
  path: '/api/portal/protocols',
  summary: 'Directory of the protocols on the chain an agent of this service meets, with their contracts',
  tags: ['read'],
  input: z.object({}),
  output: z.object({
    protocols: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        category: z.string(),
        url: z.string(),
        description: z.string(),
        contracts: z.record(z.string(), z.string()),
      }),
    ),
    updated: z.string(),
  }),
  errors: [],
  cacheSeconds: 300,
  staleSeconds: 600,
  uses: ['chain'],
  async handler(ctx) {
    return {
      protocols: protocolDirectory.map((p) => ({
        ...p,
        contracts: Object.fromEntries(
          (p.contracts as readonly ContractName[]).flatMap((name) => (ctx.chain.contracts[name] ? [[name, ctx.chain.contracts[name]!]] : [])),
        ),
      })),
      updated: DIRECTORY_UPDATED,
    }
  },
})
