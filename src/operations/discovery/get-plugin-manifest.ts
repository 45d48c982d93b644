import { z } from 'zod'
import { defineOperation } from '../define.ts'
import { jsonDocument } from './text-answer.ts'
import { legalLinks } from './legal-links.ts'
import { CONTACT_EMAIL } from './contact.ts'

export const getPluginManifest = defineOperation({
  id: 'get_plugin_manifest',
  method: 'GET',
  path: '/.well-known/ai-plugin.json',
  summary: 'AI plugin manifest pointing at the OpenAPI document',
  tags: ['discovery'],
  input: z.object({}),
  output: jsonDocument,
  errors: [],
  cacheSeconds: 3600,
  staleSeconds: 3600,
  mcp: { tool: 'get_discovery_document', as: 'plugin_manifest' },
  uses: ['chain', 'baseUrl'],
  async handler(ctx) {
    const base = ctx.baseUrl()
    return {
      schema_version: 'v1',
      name_for_human: 'MegaChad',
      name_for_model: 'megachad',
      description_for_human: 'Burn MEGACHAD for an AI portrait NFT.',
      description_for_model: `Quotes, plans and transaction builders for the MegaChad burn-to-create protocol on MegaETH (chain ${ctx.chain.info.chainId}); the looksmaxx submission is paid with x402.`,
      auth: { type: 'none' },
      api: { type: 'openapi', url: `${base}/.well-known/openapi.json` },
      contact_email: CONTACT_EMAIL,
      legal_info_url: legalLinks(base).terms,
    }
  },
})
