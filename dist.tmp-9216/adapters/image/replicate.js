import Replicate from 'replicate';
import { STYLE_PROMPT } from "./style-prompt.js";
import { providerFailed } from "./provider-error.js";
import { toSquarePng } from "./to-png.js";
const TERMINAL = new Set(['succeeded', 'failed', 'canceled']);
/**
 * Replicate (official SDK): one prediction on the model with the portrait as a data URI,
 * waited for synchronously (`Prefer: wait`) and then by polling, and the output downloaded.
 */
export function createReplicateGenerator(options) {
    const client = new Replicate({ auth: options.apiToken, baseUrl: options.baseUrl, fetch: options.fetch, useFileOutput: false });
    const model = options.model ?? 'black-forest-labs/flux-2-max';
    const doFetch = options.fetch ?? fetch;
    return {
        name: 'replicate',
        async generate({ image, mimeType }) {
            let prediction;
            try {
                prediction = await client.predictions.create({
                    model,
                    input: {
                        prompt: STYLE_PROMPT,
                        input_images: [`data:${mimeType};base64,${Buffer.from(image).toString('base64')}`],
                        aspect_ratio: '1:1',
                        output_format: 'png',
                    },
                    wait: 60,
                });
                if (!TERMINAL.has(prediction.status)) {
                    const deadline = Date.now() + (options.timeoutMs ?? 120_000);
                    prediction = await client.wait(prediction, { interval: 500 }, async () => Date.now() > deadline);
                }
            }
            catch (cause) {
                throw providerFailed('Replicate', cause.response?.status, cause);
            }
            if (prediction.status !== 'succeeded') {
                throw providerFailed('Replicate', undefined, new Error(`prediction ${prediction.id} ended ${prediction.status}: ${String(prediction.error ?? '')}`));
            }
            const output = Array.isArray(prediction.output) ? prediction.output[0] : prediction.output;
            if (typeof output !== 'string')
                throw providerFailed('Replicate', undefined, new Error('prediction has no output URL'));
            let response;
            try {
                response = await doFetch(output, { signal: AbortSignal.timeout(30_000) });
            }
            catch (cause) {
                throw providerFailed('Replicate', undefined, cause);
            }
            if (!response.ok)
                throw providerFailed('Replicate', response.status, new Error(`output download failed`));
            return { image: await toSquarePng(new Uint8Array(await response.arrayBuffer())), mimeType: 'image/png' };
        },
    };
}
//# sourceMappingURL=replicate.js.map