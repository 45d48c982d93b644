import { z } from 'zod'
import { defineOperation } from '../define.ts'
import { textAnswer, textDocument } from './text-answer.ts'
import { discoveryLinks } from './legal-links.ts'
import { MCP_PATH } from '../runtime/paths.ts'

export const getLlmsTxt = defineOperation({
  id: 'get_llms_txt',
  method: 'GET',
  path: '/llms.txt',
  summary: 'llms.txt: a short Markdown guide to the service for language models',
  tags: ['discovery'],
  input: z.object({}),
  output: textDocument,
  errors: [],
  cacheSeconds: 3600,
  staleSeconds: 3600,
  mcp: { tool: 'get_discovery_document', as: 'llms_txt' },
  uses: ['chain', 'operations', 'baseUrl'],
  async handler(ctx) {
    const links = discoveryLinks(ctx.baseUrl(), MCP_PATH)
    return textAnswer(
      [
        '# MegaChad burn-to-create',
        '',
        `> Burn 225,000 MEGACHAD (112,500 to the dead address, 112,500 to the fund wallet), pay 1 USDm with x402, upload a portrait, receive an AI-enhanced portrait minted as an NFT on MegaETH (chain ${ctx.chain.info.chainId}).`,
        '',
        '## Start here',
        `- [Agent index](${links.agentIndex})`,
        `- [OpenAPI](${links.openapi})`,
        `- [MCP server](${links.mcp}) (Streamable HTTP; [manifest](${links.mcpManifest}))`,
        `- [Contract registry](${links.contracts})`,
        `- [Full reference](${links.llmsFull})`,
        '',
        '## Endpoints',
        ...ctx.operations.map((op) => `- \`${op.method} ${op.path}\`: ${op.summary}`),
        '',
        '## Legal',
        `- [Terms](${links.terms})`,
        `- [Privacy](${links.privacy})`,
        '',
      ].join('\n'),
      'text/markdown; charset=utf-8',
    )
  },
})
