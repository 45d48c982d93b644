import { z } from 'zod'
import { defineOperation } from '../define.ts'
import { textAnswer, textDocument } from './text-answer.ts'
import { legalLinks } from './legal-links.ts'
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
  mcp: false,
  async handler(ctx) {
    const base = ctx.baseUrl()
    const legal = legalLinks(base)
    return textAnswer(
      [
        '# agents.txt',
        `Agent-Index: ${base}/api/agent`,
        `OpenAPI: ${base}/.well-known/openapi.json`,
        `MCP: ${base}${MCP_PATH}`,
        `MCP-Manifest: ${base}/.well-known/mcp.json`,
        `Agent-Card: ${base}/.well-known/agent.json`,
        `ERC-8004-Registration: ${base}/.well-known/agent-registration.json`,
        `Contracts: ${base}/.well-known/service-protocol.json`,
        `LLMs: ${base}/llms.txt`,
        `Payment: x402 v1 exact, network ${X402_NETWORK}, 1 USDm (requirements: ${base}/api/x402/looksmaxx)`,
        `Terms: ${legal.terms}`,
        `Privacy: ${legal.privacy}`,
        'Allow: *',
        '',
      ].join('\n'),
    )
  },
})
