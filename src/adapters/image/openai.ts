import OpenAI, { toFile } from 'openai'
import type { ImageGenerator } from './port.ts'
import { STYLE_PROMPT } from './style-prompt.ts'
import { providerFailed } from './provider-error.ts'
import { toSquarePng } from './to-png.ts'

/** OpenAI image edits (official SDK): the portrait and the style prompt, one 1024² result. */
export function createOpenAIGenerator(options: { apiKey: string; model?: string; baseURL?: string; fetch?: typeof fetch; timeoutMs?: number }): ImageGenerator {
  const client = new OpenAI({ apiKey: options.apiKey, baseURL: options.baseURL, fetch: options.fetch, timeout: options.timeoutMs ?? 120_000, maxRetries: 0 })
  return {
    name: 'openai',
    async generate({ image, mimeType }) {
      let result
      try {
        const extension = mimeType.split('/')[1]
        result = await client.images.edit({
          model: options.model ?? 'gpt-image-1',
          image: await toFile(Buffer.from(image), `portrait.${extension}`, { type: mimeType }),
          prompt: STYLE_PROMPT,
          size: '1024x1024',
          n: 1,
        })
      } catch (cause) {
        throw providerFailed('OpenAI', (cause as { status?: number }).status, cause)
      }
      const b64 = result.data?.[0]?.b64_json
      if (!b64) throw providerFailed('OpenAI', undefined, new Error('no b64_json in the response'))
      return { image: await toSquarePng(new Uint8Array(Buffer.from(b64, 'base64'))), mimeType: 'image/png' }
    },
  }
}
