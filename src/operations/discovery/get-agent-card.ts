import { z } from 'zod'
import { defineOperation } from '../define.ts'
import { mcpTools, toolRoutes } from '../mcp-tools.ts'
import { jsonDocument } from './text-answer.ts'
import { legalLinks } from './legal-links.ts'
import { looksmaxxRequirements } from '../../pipeline/submit-portrait.ts'
import { X402_NETWORK } from '../../chain/constants.ts'

export const getAgentCard = defineOperation({
  id: 'get_agent_card',
  method: 'GET',
  path: '/.well-known/agent.json',
  summary: 'A2A agent card: skills derived from the operations registry, x402 payment details',
  tags: ['discovery'],
  input: z.object({}),
  output: jsonDocument,
  errors: [],
  cacheSeconds: 3600,
  staleSeconds: 3600,
  mcp: { tool: 'get_discovery_document', as: 'agent_card' },
  uses: ['chain', 'operations', 'baseUrl'],
  async handler(ctx) {
    const base = ctx.baseUrl()
    const requirements = looksmaxxRequirements(ctx)
    return {
      name: 'MegaChad',
      description: 'Burn-to-create portraits on MegaETH, paid with x402.',
      url: `${base}/api/agent`,
      version: '1.0.0',
      documentationUrl: `${base}/.well-known/openapi.json`,
      provider: { organization: 'MegaChad', url: base },
      capabilities: { streaming: true, pushNotifications: false, stateTransitionHistory: true },
      authentication: { schemes: ['x402'] },
      // The payment an agent needs before its first call: the same requirements the 402 answer carries.
      x402: {
        version: 1,
        scheme: requirements.scheme,
        network: X402_NETWORK,
        chainId: ctx.chain.info.chainId,
        asset: requirements.asset,
        assetDomain: requirements.extra,
        payTo: requirements.payTo,
        maxAmountRequired: requirements.maxAmountRequired,
        maxTimeoutSeconds: requirements.maxTimeoutSeconds,
        paymentHeader: 'X-PAYMENT',
        requirementsUrl: `${base}/api/x402/looksmaxx`,
        paidEndpoints: [`POST ${base}/api/x402/looksmaxx`],
      },
      legal: legalLinks(base),
      defaultInputModes: ['application/json'],
      defaultOutputModes: ['application/json'],
      // One skill per MCP tool (the same names as tools/list), with the HTTP routes behind it.
      skills: mcpTools(ctx.operations).map((tool) => ({
        id: tool.name,
        name: tool.title,
        description: tool.key ? tool.description : (tool.variants[0]!.op.description ?? tool.description),
        tags: [...new Set(tool.variants.flatMap((v) => v.op.tags))],
        examples: toolRoutes(tool).map((route) => `${route.method} ${base}${route.path}`),
        inputModes: ['application/json'],
        outputModes: ['application/json'],
      })),
    }
  },
})
