import { z } from 'zod'
import { defineOperation } from '../define.ts'
import { mcpTools } from '../mcp-tools.ts'
import { chainInfo } from '../schemas.ts'
import { missingContracts } from '../../chain/contract-names.ts'
import { CONTRACT_VARIABLE, absentFor, contractLabel } from '../../chain/not-deployed.ts'
import { AGENT_INTENTS, ENDPOINT_GROUPS } from './intents.ts'
import { MCP_PATH } from '../runtime/paths.ts'
import { legalLinks } from '../discovery/legal-links.ts'
import { CONTACT_EMAIL } from '../discovery/contact.ts'
import { RECEIPT_SCHEMA_PATH, receiptKey, receiptKeyOut } from '../discovery/get-receipt-schema.ts'

const group = z.record(z.string(), z.string())

export const getAgentIndex = defineOperation({
  id: 'get_agent_index',
  // HTTP only: discovery document; an MCP client discovers tools by tools/list.
  mcp: { tool: 'get_discovery_document', as: 'agent_index' },
  method: 'GET',
  path: '/api/agent',
  summary: 'Agent index: where everything is, generated from the operations registry',
  description: 'Version 2.0.0. Cached about 5 minutes (Cache-Control and ETag; send If-None-Match for a 304).',
  tags: ['discovery'],
  input: z.object({}),
  output: z.object({
    name: z.string(),
    version: z.string(),
    tagline: z.string(),
    chain: chainInfo,
    contractRegistry: z.string(),
    manifests: z.record(z.string(), z.string()),
    mcp: z.object({ url: z.string(), toolCount: z.number().int(), tools: z.array(z.string()), configExample: z.record(z.string(), z.unknown()) }),
    quickstart: z.object({
      recommendedFlow: z.array(z.string()),
      firstCall: z.object({ method: z.string(), url: z.string(), body: z.record(z.string(), z.unknown()).nullable() }),
    }),
    contracts: z.record(z.string(), z.string().nullable()).describe('Addresses by name; null: not deployed on this network (see notDeployed)'),
    notDeployed: z
      .object({ contracts: z.array(z.string()), operations: z.array(z.string()), note: z.string() })
      .nullable()
      .describe('The contracts this network lacks and the operations that answer 503 NOT_DEPLOYED for it; null when every contract is deployed'),
    endpoints: z.object({ discovery: group, naturalLanguage: group, reads: group, txBuilders: group, agentEconomy: group }),
    intents: z.array(z.string()),
    examples: z.array(z.object({ message: z.string(), returns: z.string() })),
    authentication: z.object({ publicReads: z.string(), x402: z.string() }),
    receipts: receiptKeyOut.describe('The key that signs the 402\'s offers and every paid answer\'s receipts; the ERC-8004 registration names the same'),
    legal: z.object({ terms: z.string(), privacy: z.string() }),
    contact: z.object({ email: z.string() }),
  }),
  errors: [],
  cacheSeconds: 300,
  staleSeconds: 600,
  cacheControl: 'public, max-age=300, stale-while-revalidate=600',
  uses: ['chain', 'operations', 'baseUrl', 'receipts'],
  async handler(ctx) {
    const base = ctx.baseUrl()
    const endpoints = { discovery: {}, naturalLanguage: {}, reads: {}, txBuilders: {}, agentEconomy: {} } as Record<string, Record<string, string>>
    for (const op of ctx.operations) endpoints[ENDPOINT_GROUPS[op.tags[0] ?? ''] ?? 'reads']![op.id] = `${op.method} ${op.path}`
    const c = ctx.chain.contracts
    const missing = missingContracts(c)
    return {
      name: 'MegaChad burn-to-create',
      version: '2.0.0',
      tagline: 'Burn 225,000 MEGACHAD, pay 1 USDm with x402, get your AI-enhanced portrait minted as an NFT on MegaETH.',
      chain: ctx.chain.info,
      contractRegistry: `${base}/.well-known/service-protocol.json`,
      manifests: {
        agentCard: `${base}/.well-known/agent.json`,
        mcpManifest: `${base}/.well-known/mcp.json`,
        pluginManifest: `${base}/.well-known/ai-plugin.json`,
        openapi: `${base}/.well-known/openapi.json`,
        erc8004Registration: `${base}/.well-known/agent-registration.json`,
        receipts: `${base}${RECEIPT_SCHEMA_PATH}`,
        agentsTxt: `${base}/agents.txt`,
        llmsTxt: `${base}/llms.txt`,
        llmsFullTxt: `${base}/llms-full.txt`,
      },
      mcp: {
        url: `${base}${MCP_PATH}`,
        toolCount: mcpTools(ctx.operations).length,
        tools: mcpTools(ctx.operations).map((tool) => tool.name),
        configExample: { mcpServers: { megachad: { type: 'http', url: `${base}${MCP_PATH}` } } },
      },
      quickstart: {
        recommendedFlow: [
          `GET ${base}/api/agent/looksmaxx?wallet=<your wallet>: the plan with ready transactions`,
          'Send the swap (if needed), the burn and the fund transfer from your wallet',
          `GET ${base}/api/x402/looksmaxx: the 402 payment requirements`,
          `POST ${base}/api/x402/looksmaxx with both hashes, your portrait and the signed payment`,
          `GET ${base}/api/x402/looksmaxx/<burnTxHash> if the answer did not arrive`,
        ],
        firstCall: { method: 'GET', url: `${base}/api/x402/quote?ethAmount=0.6`, body: null },
      },
      contracts: {
        token: c.token,
        secondToken: c.secondToken ?? null,
        nft: c.nft,
        moggerStaking: c.moggerStaking ?? null,
        jesterStaking: c.jesterStaking ?? null,
        pair: c.pair ?? null,
        governance: c.governance ?? null,
        vetoCouncil: c.vetoCouncil ?? null,
        ranking: c.ranking ?? null,
        emissionController: c.emissionController ?? null,
        circuitBreaker: c.circuitBreaker ?? null,
      },
      notDeployed: missing.length
        ? {
            contracts: missing,
            operations: ctx.operations.filter((op) => absentFor(op, c).length > 0).map((op) => op.id),
            note: `Not deployed on this network (no address is recorded): ${missing.map(contractLabel).join(', ')}. The operations listed answer 503 NOT_DEPLOYED naming the contract; the operator supplies an address with ${CONTRACT_VARIABLE}.`,
          }
        : null,
      endpoints: endpoints as { discovery: Record<string, string>; naturalLanguage: Record<string, string>; reads: Record<string, string>; txBuilders: Record<string, string>; agentEconomy: Record<string, string> },
      intents: [...AGENT_INTENTS],
      examples: [
        { message: 'what is the price of megachad?', returns: 'price and burn cost (GET /api/price)' },
        { message: 'how do I looksmaxx 0xYourWallet?', returns: 'the ordered plan (GET /api/agent/looksmaxx)' },
        { message: 'show the leaderboard', returns: 'top burners (GET /api/chadboard)' },
      ],
      authentication: {
        publicReads: 'Public reads need no authentication.',
        x402: 'The looksmaxx submission is paid with an x402 exact payment of 1 USDm (v1 network megaeth or v2 eip155:4326, asset: the USDm forwarder), over HTTP or over MCP (_meta["x402/payment"]). The answer carries two signed receipts (x402 offer-receipt and a DeliveryReceipt), verifiable against receipts.signer.',
      },
      receipts: receiptKey(ctx),
      legal: legalLinks(base),
      contact: { email: CONTACT_EMAIL },
    }
  },
})
