import { INTENTS, type Intent } from './intent-names.ts'

export type LlmRefiner = {
  /**
   * Asks the model which intent a message has, among all intents (the rule classifier's
   * candidates first). Resolves to undefined on any failure or an answer that is not an intent.
   */
  refine(message: string, candidates: Intent[]): Promise<Intent | 'unclear' | undefined>
}

export type LlmOptions = {
  /** Base URL of an OpenAI-compatible API (`…/v1`) or the full `/chat/completions` URL. */
  url: string
  apiKey?: string
  model: string
  timeoutMs: number
  fetch?: typeof fetch
}

const SYSTEM = [
  'You classify messages sent to a burn-to-create portrait service on MegaETH (burn 225,000 MEGACHAD tokens, pay 1 USDm, get an AI portrait NFT; DeFi: staking in mogger/jester, an MC/MG pair, governance).',
  `Answer with JSON only: {"intent": "<one of: ${INTENTS.join(', ')}, unclear>"}.`,
  'Use "unclear" when the message fits none.',
].join(' ')

/** An optional refinement of unsure rule classifications through an OpenAI-compatible chat-completions API. */
export function createLlmRefiner(options: LlmOptions): LlmRefiner {
  const endpoint = /\/chat\/completions\/?$/.test(options.url) ? options.url : `${options.url.replace(/\/+$/, '')}/chat/completions`
  const doFetch = options.fetch ?? fetch
  return {
    async refine(message, candidates) {
      try {
        const response = await doFetch(endpoint, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}) },
          body: JSON.stringify({
            model: options.model,
            temperature: 0,
            max_tokens: 40,
            messages: [
              { role: 'system', content: SYSTEM },
              { role: 'user', content: `Likely candidates: ${candidates.join(', ') || 'none'}.\nMessage: ${message.slice(0, 2000)}` },
            ],
          }),
          signal: AbortSignal.timeout(options.timeoutMs),
        })
        if (!response.ok) return undefined
        const body = (await response.json()) as { choices?: Array<{ message?: { content?: unknown } }> }
        const content = body.choices?.[0]?.message?.content
        return typeof content === 'string' ? parseIntent(content) : undefined
      } catch {
        return undefined
      }
    },
  }
}

/** The intent named by a model's reply: `{"intent": "x"}` (possibly inside prose or a code fence) or a bare name. */
export function parseIntent(content: string): Intent | 'unclear' | undefined {
  const json = content.match(/\{[\s\S]*?\}/)?.[0]
  let name: unknown
  if (json) {
    try {
      name = (JSON.parse(json) as { intent?: unknown }).intent
    } catch {
      name = undefined
    }
  }
  name ??= content.trim().replace(/^["'`]+|["'`.]+$/g, '')
  if (typeof name !== 'string') return undefined
  const value = name.trim().toLowerCase()
  if (value === 'unclear') return 'unclear'
  return (INTENTS as readonly string[]).includes(value) ? (value as Intent) : undefined
}
