import { z } from 'zod'
import { defineOperation } from '../define.ts'
import { textDocument } from './text-answer.ts'
import { legalPageAnswer } from './legal-page.ts'
import { PRIVACY_PATH, TERMS_PATH } from './legal-links.ts'
import { CONTACT_EMAIL } from './contact.ts'

export const getTerms = defineOperation({
  id: 'get_terms',
  method: 'GET',
  path: TERMS_PATH,
  summary: 'Terms of use of this service (HTML page)',
  description: 'What the service does on your behalf and what it does not, finality of burns, what a paid looksmaxx owes you, no warranty.',
  tags: ['discovery'],
  input: z.object({}),
  output: textDocument,
  errors: [],
  cacheSeconds: 3600,
  staleSeconds: 3600,
  mcp: { tool: 'get_discovery_document', as: 'terms' },
  uses: ['config', 'chain'],
  async handler(ctx) {
    const { chainId, name } = ctx.chain.info
    // Without a contract registry the service runs against its embedded devnet (docs/operators/configuration.md).
    const devnet = !ctx.config.CONTRACTS_FILE
    return legalPageAnswer({
        title: 'Terms of use',
        intro: `These terms cover this instance of the MegaChad burn-to-create service: its HTTP API, its MCP server at \`/api/mcp\` and its pages. Using them means you accept these terms.`,
        sections: [
          {
            heading: 'What the service does',
            paragraphs: [
              `It is an interface to the MegaChad contracts on ${name} (chain ${chainId}). Quotes, prices, plans and transaction builders return data and unsigned transactions: you sign and send them with your own wallet, and nothing happens on chain until you do.`,
              'The service acts on chain itself in two cases only: when you submit a looksmaxx (it settles your x402 payment of 1 USDm, then mints the portrait NFT to the burner address), and when you submit a signed gasless burn (it relays that burn and pays its gas). It never holds your keys and never moves your tokens otherwise.',
              ...(devnet
                ? ['This instance runs on an embedded development chain on the operator’s machine: its tokens have no value, its account keys are public, and its state can be reset at any time.']
                : []),
            ],
          },
          {
            heading: 'Burns and payments are final',
            paragraphs: [
              'Tokens sent to the dead address are destroyed; tokens sent to the fund wallet belong to the fund. Nobody, the operators included, can send them back.',
              'One pair of burn transactions redeems one portrait. A burn already redeemed is refused (HTTP 409), so a burn cannot be paid for twice.',
              'Your x402 payment is settled only after both burns are verified on chain. Once it is settled, the portrait is owed to you: a failed image generation, upload or mint is retried until it succeeds, and `GET /api/x402/looksmaxx/{burnTxHash}` shows where your portrait stands.',
            ],
          },
          {
            heading: 'Your portrait',
            paragraphs: [
              'Upload only images you have the right to use, and nobody’s face without their consent. No unlawful, sexual or hateful content.',
              'The generated portrait and its metadata are published: pinned to IPFS and referenced by an NFT on a public chain. Both are effectively permanent (see the privacy page).',
            ],
          },
          {
            heading: 'Quotes, prices and plans',
            paragraphs: [
              'They are computed from the chain’s state at the time of your call. The chain moves: a transaction mined later can get a different price, and the 2% slippage limit of a quote bounds what you receive, not the price. Nothing the service says is financial advice.',
            ],
          },
          {
            heading: 'No warranty',
            paragraphs: [
              'The service, its software and the contracts it points to are provided as is, without warranty of any kind, express or implied, including availability, accuracy and fitness for a particular purpose. Smart contracts can have bugs; the chain, its RPC endpoints, the payment facilitator and the image and IPFS providers can fail or be slow.',
              'To the extent the law allows, the operators are not liable for any loss arising from the use of the service. What a settled looksmaxx payment buys is the delivery of its portrait NFT.',
            ],
          },
          {
            heading: 'Changes and contact',
            paragraphs: [
              'These terms ship with the service’s code and change with it; the version served here is the one that applies.',
              `Questions: ${CONTACT_EMAIL}.`,
            ],
          },
        ],
        links: [['Privacy', PRIVACY_PATH], ['Agent index', '/api/agent'], ['OpenAPI', '/.well-known/openapi.json']],
      })
  },
})
