import { z } from 'zod'
import { toolCallOf } from '../mcp-tools.ts'
import { defineOperation } from '../define.ts'
import { textAnswer, textDocument } from './text-answer.ts'
import { legalLinks } from './legal-links.ts'

export const getLlmsFullTxt = defineOperation({
  id: 'get_llms_full_txt',
  method: 'GET',
  path: '/llms-full.txt',
  summary: 'llms-full.txt: every endpoint with its description and error codes, in Markdown',
  tags: ['discovery'],
  input: z.object({}),
  output: textDocument,
  errors: [],
  cacheSeconds: 3600,
  staleSeconds: 3600,
  mcp: { tool: 'get_discovery_document', as: 'llms_full_txt' },
  uses: ['chain', 'operations', 'baseUrl'],
  async handler(ctx) {
    const base = ctx.baseUrl()
    const legal = legalLinks(base)
    const sections = ctx.operations.map((op) =>
      [`### ${op.method} ${op.path}`, '', op.summary + '.', ...(op.description ? ['', op.description] : []), '', `Operation \`${op.id}\`; ${toolCallOf(op)}. Errors: ${['INVALID_INPUT', ...op.errors, ...(op.requires?.length ? ['NOT_DEPLOYED'] : [])].join(', ')}.`, ''].join('\n'),
    )
    return textAnswer(
      [
        '# MegaChad burn-to-create: full reference',
        '',
        `Chain: ${ctx.chain.info.name} (${ctx.chain.info.chainId}), RPC ${ctx.chain.info.rpc}. Base URL: ${base}.`,
        `Terms: ${legal.terms}. Privacy: ${legal.privacy}.`,
        '',
        '## The flow',
        '1. GET /api/agent/looksmaxx?wallet=<your wallet> for the plan with ready transactions.',
        '2. Send the swap (when short of tokens), the burn and the fund transfer.',
        '3. GET /api/x402/looksmaxx for the 402 payment requirements; sign the EIP-3009 authorization (accepts[0], USDm forwarder) or a Permit2 witness transfer (accepts[1], x402ExactPermit2Proxy).',
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
