import { z } from 'zod'
import { defineOperation } from '../define.ts'
import { textAnswer, textDocument } from './text-answer.ts'
import { discoveryLinks } from './legal-links.ts'
import { MCP_PATH } from '../runtime/paths.ts'
import { X402_NETWORK } from '../../chain/constants.ts'

export const getAgentsTxt = defineOperation({
  id: 'get_agents_txt',
  method: 'GET',
  path: '/agents.txt',
  summary: 'agents.txt: where agents find the API, MCP server and manifests',
  tags: ['discovery'],
  input: z.object({}),
  output: textDocument,
  errors: [],
  cacheSeconds: 3600,
  staleSeconds: 3600,
  mcp: { tool: 'get_discovery_document', as: 'agents_txt' },
  uses: ['baseUrl'],
  async handler(ctx) {
    const links = discoveryLinks(ctx.baseUrl(), MCP_PATH)
    return textAnswer(
      [
        '# agents.txt',
        `Agent-Index: ${links.agentIndex}`,
        `OpenAPI: ${links.openapi}`,
        `MCP: ${links.mcp}`,
        `MCP-Manifest: ${links.mcpManifest}`,
        `Agent-Card: ${links.agentCard}`,
        `ERC-8004-Registration: ${links.registration}`,
        `Contracts: ${links.contracts}`,
        `LLMs: ${links.llms}`,
        `Payment: x402 v1 exact, network ${X402_NETWORK}, 1 USDm (requirements: ${links.paymentRequirements})`,
        `Terms: ${links.terms}`,
        `Privacy: ${links.privacy}`,
        'Allow: *',
        '',
      ].join('\n'),
    )
  },
})
