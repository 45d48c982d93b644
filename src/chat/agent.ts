import type { Config } from '../config/load.ts'
import type { Context } from '../context.ts'
import { chat, type ChatRequest, type ChatResult } from './engine.ts'
import { INTENTS } from './intent-names.ts'
import { INTENT_HANDLERS } from './intents/index.ts'
import { createLlmRefiner, type LlmRefiner } from './llm.ts'

const refiners = new WeakMap<Config, LlmRefiner | null>()

/** The optional LLM refiner of this configuration (built once per configuration, not at import). */
function refinerOf(config: Config): LlmRefiner | undefined {
  let refiner = refiners.get(config)
  if (refiner === undefined) {
    refiner = config.CHAT_LLM_URL
      ? createLlmRefiner({ url: config.CHAT_LLM_URL, apiKey: config.CHAT_LLM_API_KEY?.reveal(), model: config.CHAT_LLM_MODEL, timeoutMs: config.CHAT_LLM_TIMEOUT_MS })
      : null
    refiners.set(config, refiner)
  }
  return refiner ?? undefined
}

/**
 * What the chat operations (operations/agent/chat.ts) use of chat/: app.ts puts it in Context
 * as `ctx.chat`, so the operations layer does not import this layer above it.
 */
export const chatAgent = {
  answer(ctx: Context, request: ChatRequest): Promise<ChatResult> {
    return chat(ctx, request, refinerOf(ctx.config))
  },
  /** The intents understood, in order, with what each calls and an example message. */
  intents() {
    return INTENTS.map((intent) => ({
      intent,
      description: INTENT_HANDLERS[intent].description,
      operations: INTENT_HANDLERS[intent].operations.map((op) => op.id),
      example: INTENT_HANDLERS[intent].example,
    }))
  },
}

export type ChatAgent = typeof chatAgent

declare module '../context.ts' {
  interface Ports {
    chat: ChatAgent
  }
}
