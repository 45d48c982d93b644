import { z } from 'zod'
import { defineOperation, mcpToolOperations, respond } from '../define.ts'
import type { Context } from '../../context.ts'
import { buildRegistration, registrationSchema } from '../agent/get-agent-info.ts'
import { MCP_PATH } from '../runtime/paths.ts'

const document = z.looseObject({}).describe('JSON document')
const text = z.object({}).describe('text/plain (Markdown for the llms files)')
const plain = (body: string, type = 'text/plain; charset=utf-8') => respond(200, Buffer.from(body), { 'content-type': type })

function endpointLines(ctx: Context): string[] {
  return ctx.operations.map((op) => `- \`${op.method} ${op.path}\`: ${op.summary}`)
}

export const getAgentCard = defineOperation({
  id: 'get_agent_card',
  method: 'GET',
  path: '/.well-known/agent.json',
  summary: 'A2A agent card: skills derived from the operations registry',
  tags: ['discovery'],
  input: z.object({}),
  output: document,
  errors: [],
  cacheSeconds: 3600,
  staleSeconds: 3600,
  mcp: false,
  async handler(ctx) {
    const base = ctx.baseUrl()
    return {
      name: 'MegaChad',
      description: 'Burn-to-create portraits on MegaETH, paid with x402.',
      url: `${base}/api/agent`,
      version: '1.0.0',
      documentationUrl: `${base}/.well-known/openapi.json`,
      provider: { organization: 'MegaChad', url: base },
      capabilities: { streaming: true, pushNotifications: false, stateTransitionHistory: true },
      authentication: { schemes: ['x402'] },
      defaultInputModes: ['application/json'],
      defaultOutputModes: ['application/json'],
      skills: mcpToolOperations(ctx.operations).map((op) => ({
        id: op.id,
        name: op.summary,
        description: op.description ?? op.summary,
        tags: op.tags,
        examples: [`${op.method} ${base}${op.path}`],
        inputModes: ['application/json'],
        outputModes: ['application/json'],
      })),
    }
  },
})

export const getMcpManifest = defineOperation({
  id: 'get_mcp_manifest',
  method: 'GET',
  path: '/.well-known/mcp.json',
  summary: 'MCP server manifest: endpoint, transport and tools',
  tags: ['discovery'],
  input: z.object({}),
  output: document,
  errors: [],
  cacheSeconds: 3600,
  staleSeconds: 3600,
  mcp: false,
  async handler(ctx) {
    return {
      name: 'burn-to-create',
      version: '1.0.0',
      transport: { type: 'streamable-http', url: `${ctx.baseUrl()}${MCP_PATH}`, stateless: true },
      toolCount: mcpToolOperations(ctx.operations).length,
      tools: mcpToolOperations(ctx.operations).map((op) => ({ name: op.id, description: op.summary })),
    }
  },
})

export const getPluginManifest = defineOperation({
  id: 'get_plugin_manifest',
  method: 'GET',
  path: '/.well-known/ai-plugin.json',
  summary: 'AI plugin manifest pointing at the OpenAPI document',
  tags: ['discovery'],
  input: z.object({}),
  output: document,
  errors: [],
  cacheSeconds: 3600,
  staleSeconds: 3600,
  mcp: false,
  async handler(ctx) {
    const base = ctx.baseUrl()
    return {
      schema_version: 'v1',
      name_for_human: 'MegaChad',
      name_for_model: 'megachad',
      description_for_human: 'Burn MEGACHAD for an AI portrait NFT.',
      description_for_model: 'Quotes, plans and transaction builders for the MegaChad burn-to-create protocol on MegaETH (chain 4326); the looksmaxx submission is paid with x402.',
      auth: { type: 'none' },
      api: { type: 'openapi', url: `${base}/.well-known/openapi.json` },
      contact_email: 'agents@megachad.xyz',
      legal_info_url: `${base}/llms.txt`,
    }
  },
})

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
  mcp: false,
  async handler(ctx) {
    return buildRegistration(ctx)
  },
})

export const getAgentsTxt = defineOperation({
  id: 'get_agents_txt',
  method: 'GET',
  path: '/agents.txt',
  summary: 'agents.txt: where agents find the API, MCP server and manifests',
  tags: ['discovery'],
  input: z.object({}),
  output: text,
  errors: [],
  cacheSeconds: 3600,
  staleSeconds: 3600,
  mcp: false,
  async handler(ctx) {
    const base = ctx.baseUrl()
    return plain(
      [
        '# agents.txt',
        `Agent-Index: ${base}/api/agent`,
        `OpenAPI: ${base}/.well-known/openapi.json`,
        `MCP: ${base}${MCP_PATH}`,
        `Agent-Card: ${base}/.well-known/agent.json`,
        `Contracts: ${base}/.well-known/service-protocol.json`,
        'Payment: x402 v1 exact, network megaeth, 1 USDm',
        'Allow: *',
        '',
      ].join('\n'),
    )
  },
})

export const getLlmsTxt = defineOperation({
  id: 'get_llms_txt',
  method: 'GET',
  path: '/llms.txt',
  summary: 'llms.txt: a short Markdown guide to the service for language models',
  tags: ['discovery'],
  input: z.object({}),
  output: text,
  errors: [],
  cacheSeconds: 3600,
  staleSeconds: 3600,
  mcp: false,
  async handler(ctx) {
    const base = ctx.baseUrl()
    return plain(
      [
        '# MegaChad burn-to-create',
        '',
        `> Burn 225,000 MEGACHAD (112,500 to the dead address, 112,500 to the fund wallet), pay 1 USDm with x402, upload a portrait, receive an AI-enhanced portrait minted as an NFT on MegaETH (chain ${ctx.chain.info.chainId}).`,
        '',
        '## Start here',
        `- [Agent index](${base}/api/agent)`,
        `- [OpenAPI](${base}/.well-known/openapi.json)`,
        `- [MCP server](${base}${MCP_PATH})`,
        `- [Contract registry](${base}/.well-known/service-protocol.json)`,
        '',
        '## Endpoints',
        ...endpointLines(ctx),
        '',
      ].join('\n'),
      'text/markdown; charset=utf-8',
    )
  },
})

export const getLlmsFullTxt = defineOperation({
  id: 'get_llms_full_txt',
  method: 'GET',
  path: '/llms-full.txt',
  summary: 'llms-full.txt: every endpoint with its description and error codes, in Markdown',
  tags: ['discovery'],
  input: z.object({}),
  output: text,
  errors: [],
  cacheSeconds: 3600,
  staleSeconds: 3600,
  mcp: false,
  async handler(ctx) {
    const base = ctx.baseUrl()
    const sections = ctx.operations.map((op) =>
      [`### ${op.method} ${op.path}`, '', op.summary + '.', ...(op.description ? ['', op.description] : []), '', `Operation and MCP tool: \`${op.id}\`. Errors: ${['INVALID_INPUT', ...op.errors].join(', ')}.`, ''].join('\n'),
    )
    return plain(
      [
        '# MegaChad burn-to-create: full reference',
        '',
        `Chain: ${ctx.chain.info.name} (${ctx.chain.info.chainId}), RPC ${ctx.chain.info.rpc}. Base URL: ${base}.`,
        '',
        '## The flow',
        '1. GET /api/agent/looksmaxx?wallet=… for the plan with ready transactions.',
        '2. Send the swap (when short of tokens), the burn and the fund transfer.',
        '3. GET /api/x402/looksmaxx for the 402 payment requirements; sign the EIP-3009 authorization.',
        '4. POST /api/x402/looksmaxx with both hashes, burnerAddress, the base64 portrait and the payment, signed by the burner wallet (only the burner may redeem its burns; another payer, or POST /api/generate, needs the burner\'s EIP-712 RedeemBurn as burnerSignature: see burnerProof in the 402 body).',
        '5. If the answer is lost: GET /api/x402/looksmaxx/{burnTxHash}.',
        '',
        '## Endpoints',
        '',
        ...sections,
      ].join('\n'),
      'text/markdown; charset=utf-8',
    )
  },
})
