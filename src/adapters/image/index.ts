import type { ImageGenerator } from './port.ts'
import { createThreadedStylizer } from './threaded-stylizer.ts'

export type ImageConfig =
  | { kind: 'local'; threads?: number }
  | { kind: 'replicate'; apiToken: string; model?: `${string}/${string}`; baseUrl?: string }
  | { kind: 'openai'; apiKey: string; model?: string; baseURL?: string }

/**
 * A generator whose implementation module is imported on first use: the provider SDKs (openai
 * alone is some 240 modules) are not loaded by a start that never calls them, so `npm start`
 * does not pay for them.
 */
function lazy(name: string, load: () => Promise<ImageGenerator>): ImageGenerator {
  let loaded: Promise<ImageGenerator> | undefined
  const get = () => (loaded ??= load())
  return {
    name,
    async generate(input) {
      return (await get()).generate(input)
    },
    async close() {
      if (loaded) await (await loaded).close?.()
    },
  }
}

export function createImageGenerator(config: ImageConfig): ImageGenerator {
  switch (config.kind) {
    case 'local':
      return createThreadedStylizer({ threads: config.threads })
    case 'replicate':
      return lazy('replicate', async () => (await import('./replicate.ts')).createReplicateGenerator(config))
    case 'openai':
      return lazy('openai', async () => (await import('./openai.ts')).createOpenAIGenerator(config))
  }
}
