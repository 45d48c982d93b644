import { z } from 'zod'
import type { Config } from '../../config/load.ts'
import { defineOperation } from '../define.ts'
import { textDocument } from './text-answer.ts'
import { legalPageAnswer } from './legal-page.ts'
import { PRIVACY_PATH, TERMS_PATH } from './legal-links.ts'
import { CONTACT_EMAIL } from './contact.ts'

/** Who else sees what you send, for this instance: derived from its configuration, so the page cannot claim less than it does. */
function thirdParties(config: Config): string[] {
  const images = {
    local: 'Image generation: the built-in stylizer of this service. Your upload does not leave the service.',
    replicate: 'Image generation: Replicate. Your uploaded image is sent to Replicate, under its terms, to generate the portrait.',
    openai: 'Image generation: OpenAI. Your uploaded image is sent to OpenAI, under its terms, to generate the portrait.',
  }[config.IMAGE_PROVIDER]
  const ipfs = {
    local: 'IPFS: the built-in store of this service, served at `/ipfs/{cid}`; any IPFS node can fetch and keep a copy by its CID.',
    pinata: 'IPFS: Pinata pins the generated portrait and its metadata, under its terms.',
    kubo: 'IPFS: an IPFS (Kubo) node of the operator pins the generated portrait and its metadata.',
  }[config.IPFS_PROVIDER]
  return [
    images,
    ipfs,
    config.FACILITATOR_URL
      ? 'Payments: an external x402 facilitator chosen by the operator verifies and settles your signed payment.'
      : 'Payments: the built-in facilitator of this service verifies and settles your signed payment on chain.',
    config.CHAT_LLM_URL
      ? 'Chat: messages the rules cannot classify with confidence are sent to a language model the operator configured (OpenAI-compatible API).'
      : 'Chat: messages are classified by rules inside the service; no language model sees them.',
    'The chain: reads and the transactions the service sends go to the chain’s RPC endpoint.',
  ]
}

export const getPrivacy = defineOperation({
  id: 'get_privacy',
  method: 'GET',
  path: PRIVACY_PATH,
  summary: 'Privacy notice of this service (HTML page)',
  description: 'What the service stores (wallets, uploads, logs), what becomes public and permanent (IPFS, the chain), and which third parties this instance uses, from its configuration.',
  tags: ['discovery'],
  input: z.object({}),
  output: textDocument,
  errors: [],
  cacheSeconds: 3600,
  staleSeconds: 3600,
  mcp: { tool: 'get_discovery_document', as: 'privacy' },
  uses: ['config'],
  async handler(ctx) {
    const database = ctx.config.DATABASE_URL ? 'the operator’s PostgreSQL database' : 'an embedded database on the operator’s machine'
    return legalPageAnswer({
        title: 'Privacy',
        intro: 'This page says what this instance of the MegaChad burn-to-create service keeps about you, what it publishes, and who else sees it. It sets no cookies and uses no analytics or trackers.',
        sections: [
          {
            heading: 'Wallets and transactions',
            paragraphs: [
              `Wallet addresses and transaction hashes you send (burns, payments, gasless signatures, referral and early-access registrations) are public on the chain anyway. The service stores them in ${database} to run the looksmaxx pipeline and to refuse a burn redeemed twice. They are kept as long as that database exists, because replay protection depends on them.`,
              'An early-access registration also stores the Twitter handle and tweet URL you give, if any.',
            ],
          },
          {
            heading: 'Your uploaded image',
            paragraphs: [
              `The portrait you upload is stored in ${database} with your submission, so that every step can be retried after a crash until your NFT is minted. This version does not delete it automatically after the mint; write to us to have it deleted.`,
              'The original upload is never pinned to IPFS and never put on chain.',
            ],
          },
          {
            heading: 'What becomes public and permanent',
            paragraphs: [
              'The generated portrait and its metadata (name, description, image link, burn transaction) are pinned to IPFS. Anyone with the content identifier can fetch them, and copies that other IPFS nodes keep cannot be recalled: treat them as permanent, even after we unpin them.',
              'The NFT, the burns and the payment are transactions on a public blockchain: public and permanent by design.',
            ],
          },
          { heading: 'Who else sees what you send', paragraphs: thirdParties(ctx.config), list: true },
          {
            heading: 'Logs',
            paragraphs: [
              'The service writes one log line per request: method, path with its query string (which can contain a wallet address), status, duration and a request id; and one line per pipeline step, mint and relay. Errors are logged with their cause; keys and credentials never are. Request bodies, images and client IP addresses are not written to these lines. Client addresses may be counted in memory or in Redis for rate limits, in counters that expire.',
              'How long logs are kept is the operator’s choice; on a laptop they go to the terminal and to the devnet’s log file.',
            ],
          },
          {
            heading: 'Your choices',
            paragraphs: [
              'Do not upload an image you do not want published as a portrait. To have a stored upload deleted, or to ask what is stored about a wallet, write to ' +
                `${CONTACT_EMAIL}. We can delete what the service holds, but not what is on chain or already on IPFS.`,
            ],
          },
        ],
        links: [['Terms', TERMS_PATH], ['Agent index', '/api/agent'], ['OpenAPI', '/.well-known/openapi.json']],
      })
  },
})
