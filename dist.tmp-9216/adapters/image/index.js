import { createThreadedStylizer } from "./threaded-stylizer.js";
/**
 * A generator whose implementation module is imported on first use: the provider SDKs (openai
 * alone is some 240 modules) are not loaded by a start that never calls them, so `npm start`
 * does not pay for them.
 */
function lazy(name, load) {
    let loaded;
    const get = () => (loaded ??= load());
    return {
        name,
        async generate(input) {
            return (await get()).generate(input);
        },
        async close() {
            if (loaded)
                await (await loaded).close?.();
        },
    };
}
export function createImageGenerator(config) {
    switch (config.kind) {
        case 'local':
            return createThreadedStylizer();
        case 'replicate':
            return lazy('replicate', async () => (await import("./replicate.js")).createReplicateGenerator(config));
        case 'openai':
            return lazy('openai', async () => (await import("./openai.js")).createOpenAIGenerator(config));
    }
}
//# sourceMappingURL=index.js.map