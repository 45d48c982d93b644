import OpenAI, { toFile } from 'openai';
import { STYLE_PROMPT } from "./style-prompt.js";
import { providerFailed } from "./provider-error.js";
import { toSquarePng } from "./to-png.js";
/** OpenAI image edits (official SDK): the portrait and the style prompt, one 1024² result. */
export function createOpenAIGenerator(options) {
    const client = new OpenAI({ apiKey: options.apiKey, baseURL: options.baseURL, fetch: options.fetch, timeout: options.timeoutMs ?? 120_000, maxRetries: 0 });
    return {
        name: 'openai',
        async generate({ image, mimeType }) {
            let result;
            try {
                const extension = mimeType.split('/')[1];
                result = await client.images.edit({
                    model: options.model ?? 'gpt-image-1',
                    image: await toFile(Buffer.from(image), `portrait.${extension}`, { type: mimeType }),
                    prompt: STYLE_PROMPT,
                    size: '1024x1024',
                    n: 1,
                });
            }
            catch (cause) {
                throw providerFailed('OpenAI', cause.status, cause);
            }
            const b64 = result.data?.[0]?.b64_json;
            if (!b64)
                throw providerFailed('OpenAI', undefined, new Error('no b64_json in the response'));
            return { image: await toSquarePng(new Uint8Array(Buffer.from(b64, 'base64'))), mimeType: 'image/png' };
        },
    };
}
//# sourceMappingURL=openai.js.map