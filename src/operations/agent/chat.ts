import { z } from 'zod'
import { defineOperation } from '../define.ts'
import { addressIn, addressOut } from '../schemas.ts'

export const CHAT_PATH = '/api/agent/chat'

const action = z.object({
  label: z.string(),
  endpoint: z.string(),
  method: z.enum(['GET', 'POST']),
  body: z.record(z.string(), z.unknown()),
  operationId: z.string(),
})

const entities = z.object({
  addresses: z.array(z.string()),
  names: z.array(z.string()),
  parties: z.array(z.string()),
  amounts: z.array(z.object({ value: z.string(), token: z.string().optional(), raw: z.string() })),
  count: z.number().int().optional(),
  proposalId: z.number().int().optional(),
  venue: z.string().optional(),
  tokens: z.array(z.string()),
  chain: z.string().optional(),
  support: z.string().optional(),
  all: z.boolean(),
  recipients: z.array(z.string()).describe('Addresses or .mega names the message names in an explicit recipient phrase ("to 0x…")'),
  invalidAmounts: z.array(z.string()).describe('Amounts written that no transaction can carry (refused with INVALID_AMOUNT)'),
})

export const chatWithAgent = defineOperation({
  id: 'chat_with_agent',
  effect: 'read',
  limit: 'expensive',
  method: 'POST',
  path: CHAT_PATH,
  summary: 'Ask in plain English: the intent, a short answer, the data of the operation behind it, and suggested calls',
  description:
    'No model or key needed: entities (addresses, .mega names, amounts, counts, proposal ids, venues, tokens, chains, vote support) are read from the message and the optional wallet is the context. ' +
    'The answer carries intent ("unclear" with the closest intents as suggestions when unsure), answer, data (the raw answer of the operation called, or null), actions (valid calls of this API: label, endpoint, method, body), confidence, suggestions, entities, classifiedBy, operationId, error (the code of a refused call) and recipient. Nothing is written on chain. ' +
    'Transactions are built only for the request\'s wallet, or for an address the message names explicitly ("to 0x…", "for my other wallet 0x…"); an address merely mentioned is only ever read. Every answer that carries a transaction names its recipient and the ETH it sends.',
  tags: ['chat'],
  input: z.object({
    message: z
      .string({ error: 'must be a non-empty string' })
      .trim()
      .min(1, { error: 'must not be empty' })
      .max(2000, { error: 'must be at most 2000 characters' })
      .describe('What you want, in plain English'),
    wallet: addressIn('Your wallet, the context of the question').optional(),
  }),
  output: z.object({
    intent: z.string(),
    answer: z.string(),
    data: z.record(z.string(), z.unknown()).nullable(),
    actions: z.array(action),
    confidence: z.number(),
    suggestions: z.array(z.string()),
    entities,
    classifiedBy: z.enum(['rules', 'llm']),
    operationId: z.string().nullable(),
    error: z.object({ code: z.string(), message: z.string() }).nullable(),
    recipient: z
      .object({ address: addressOut, source: z.enum(['wallet', 'message']) })
      .nullable()
      .describe('Who receives what the answer\'s transactions move: the request\'s wallet, or an explicit "to 0x…" of the message; never an address merely mentioned. Null when the answer carries no such transaction'),
  }),
  errors: ['INVALID_ADDRESS'],
  // Every port: the chat engine runs the operations of the registry with this ctx, and each of
  // them picks its own ports from it (chat.answer takes the whole Context).
  uses: ['config', 'log', 'chain', 'db', 'cache', 'fresh', 'profiles', 'readModels', 'operations', 'bus', 'pipeline', 'indexer', 'economy', 'receipts', 'baseUrl', 'clock', 'chat', 'serving'],
  async handler(ctx, input) {
    return ctx.chat.answer(ctx, { message: input.message, wallet: input.wallet })
  },
})

export const getChatInfo = defineOperation({
  id: 'get_chat_info',
  method: 'GET',
  path: CHAT_PATH,
  summary: 'How to use the chat endpoint: the intents it understands, with examples',
  tags: ['chat'],
  input: z.object({}),
  output: z.object({
    endpoint: z.string(),
    method: z.string(),
    description: z.string(),
    supportedIntents: z.array(z.string()),
    intents: z.array(z.object({ intent: z.string(), description: z.string(), operations: z.array(z.string()), available: z.boolean() })),
    examples: z.array(z.object({ message: z.string(), intent: z.string() })),
  }),
  errors: [],
  cacheSeconds: 300,
  staleSeconds: 600,
  mcp: { tool: 'get_discovery_document', as: 'chat_info' },
  uses: ['operations', 'baseUrl', 'chat'],
  async handler(ctx) {
    const ids = new Set(ctx.operations.map((op) => op.id))
    const intents = ctx.chat.intents()
    return {
      endpoint: `${ctx.baseUrl()}${CHAT_PATH}`,
      method: 'POST',
      description: 'POST {"message": "...", "wallet"?: "0x..."}: plain-English questions become calls of this API; the answer names the intent, words the result, returns the data and suggests next calls.',
      supportedIntents: intents.map(({ intent }) => intent),
      intents: intents.map(({ intent, description, operations }) => ({
        intent,
        description,
        operations,
        available: operations.some((id) => ids.has(id)),
      })),
      examples: intents.map(({ intent, example }) => ({ message: example, intent })),
    }
  },
})
