import type { ImageGenerator } from './port.ts'
import { createThreadedStylizer } from './threaded-stylizer.ts'
import { createReplicateGenerator } from './replicate.ts'
import { createOpenAIGenerator } from './openai.ts'

export type ImageConfig =
  | { kind: 'local' }
  | { kind: 'replicate'; apiToken: string; model?: `${string}/${string}`; baseUrl?: string }
  | { kind: 'openai'; apiKey: string; model?: string; baseURL?: string }

export function createImageGenerator(config: ImageConfig): ImageGenerator {
  switch (config.kind) {
    case 'local':
      return createThreadedStylizer()
    case 'replicate':
      return createReplicateGenerator(config)
    case 'openai':
      return createOpenAIGenerator(config)
  }
}
